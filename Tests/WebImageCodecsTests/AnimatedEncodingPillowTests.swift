import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Animated GIF and WebP written by us, read back by our decoders and by Pillow: the same
/// frame count, durations, loop count and pixels.
final class AnimatedEncodingPillowTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// What Pillow reads from a file: frame count, loop (nil without one), durations in ms, and
    /// each frame converted to RGBA.
    private struct PillowReading: Decodable {
        let frames: Int
        let loop: Int?
        let durations: [Double]
        let size: [Int]
    }

    private static let script = """
        import json, sys
        from PIL import Image
        path, out = sys.argv[1], sys.argv[2]
        with Image.open(path) as im:
            durations = []
            for i in range(getattr(im, "n_frames", 1)):
                im.seek(i)
                frame = im.convert("RGBA")  # loads the frame, which sets its duration
                durations.append(im.info.get("duration", 0))
                with open(f"{out}/frame{i}.rgba", "wb") as f:
                    f.write(frame.tobytes())
            print(json.dumps({"frames": len(durations), "loop": im.info.get("loop"),
                              "durations": durations, "size": list(im.size)}))
        """

    private func roundTrip(_ format: ImageFormat, options: ImageEncodeOptions) throws {
        let animation = AnimationSample.make()
        let data = try coders.encode(animation, as: format, options: options)
        XCTAssertEqual(ImageFormat(detecting: data), format)

        let ours = try coders.decode(data)
        XCTAssertEqual(ours.frames.count, 3, "\(format): our frame count")
        XCTAssertEqual(ours.durations, [0.1, 0.25, 0.5], "\(format): our durations")
        XCTAssertEqual(ours.loopCount, 3, "\(format): our loop count")
        for i in 0..<3 { assertSamePixels(ours.frames[i].pixels, animation.frames[i].pixels, "\(format) frame \(i), ours") }

        let folder = try TemporaryFolder(self)
        let file = folder.url.appendingPathComponent("animation.\(format.fileExtension)")
        try data.write(to: file)
        let output = try Pillow.run(Self.script, [file.path, folder.url.path])
        let pillow = try JSONDecoder().decode(PillowReading.self, from: Data(output.utf8))
        XCTAssertEqual(pillow.frames, 3, "\(format): Pillow's frame count")
        XCTAssertEqual(pillow.durations, [100, 250, 500], "\(format): Pillow's durations (ms)")
        XCTAssertEqual(pillow.loop, 3, "\(format): Pillow's loop count")
        XCTAssertEqual(pillow.size, [40, 30])
        for i in 0..<3 {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent("frame\(i).rgba"))
            assertSamePixels(PixelBuffer(width: 40, height: 30, bytes: [UInt8](bytes)), animation.frames[i].pixels,
                             "\(format) frame \(i), Pillow")
        }
    }

    func testGIFRoundTripsThroughUsAndPillow() throws {
        try roundTrip(.gif, options: ImageEncodeOptions())
    }

    func testAnimatedWebPRoundTripsThroughUsAndPillow() throws {
        try roundTrip(.webp, options: ImageEncodeOptions(lossless: true))
    }

    func testAPNGRoundTripsThroughUsAndPillow() throws {
        try roundTrip(.png, options: ImageEncodeOptions())
    }
}
