import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// The lazy ``AnimatedImage`` over the real coders and the animated fixtures (GIF, APNG, WebP):
/// facts known before any pixel is decoded, frames decoded in any order equal to the eager
/// decode and to Pillow's last-frame references, and a memory cost of what is held.
final class AnimatedImageTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// The full corpus, for the test of `what` over its animations.
    private func fullCorpus(for what: String) throws -> FixtureCorpus {
        try Fixtures.requireFullCorpus(for: "\(what) over every animation of the manifest")
    }

    /// Every decodable animation of `corpus`.
    private func animatedEntries(of corpus: FixtureCorpus) throws -> [ManifestEntry] {
        let entries = try corpus.manifest().filter { $0.decodes && ($0.frames ?? 1) > 1 }
        XCTAssertEqual(Set(entries.map(\.kind)), ["gif", "png", "webp"])
        return entries
    }

    func testFactsAreKnownBeforeAnyFrameIsDecoded() throws {
        let corpus = try fullCorpus(for: "facts known before decoding")
        for entry in try animatedEntries(of: corpus) {
            let image = try AnimatedImage(data: corpus.imageData(entry.file), coders: coders)
            XCTAssertEqual(image.format.rawValue, entry.format, entry.file)
            XCTAssertEqual(image.size, PixelSize(width: try XCTUnwrap(entry.width), height: try XCTUnwrap(entry.height)),
                           entry.file)
            XCTAssertEqual(image.frameCount, entry.frames, entry.file)
            XCTAssertEqual(image.loopCount, entry.loop ?? 1, "\(entry.file): no loop block plays once")
            for (index, stated) in (entry.durations_ms ?? []).enumerated() {
                guard let stated else { continue }
                XCTAssertEqual(image.durations[index] * 1000, stated < 11 ? 100 : stated, accuracy: 1,
                               "\(entry.file) frame \(index)")
            }
            XCTAssertEqual(image.decodeCount, 0, entry.file)
            XCTAssertEqual(image.memoryCost, 0, entry.file)
        }
    }

    func testFramesDecodedOutOfOrderEqualFramesDecodedInOrder() throws {
        let corpus = try fullCorpus(for: "frames decoded out of order")
        var random = SeededRandom(seed: 0xA11)
        for entry in try animatedEntries(of: corpus) {
            let data = try corpus.imageData(entry.file)
            let eager = try coders.decode(data)
            let lazy = try AnimatedImage(data: data, coders: coders)
            let last = lazy.frameCount - 1
            // The last frame first, from a reader that has composited nothing yet.
            let reference = try coders.decode(Fixtures.data(corpus.lastFrameReference(of: entry))).pixels
            let (maximum, mean) = CorpusConformanceTests.tolerance(entry)
            let difference = PixelDifference(try lazy.frame(at: last), reference)
            XCTAssertTrue(difference.isWithin(maximum: maximum, mean: mean), "\(entry.file) last frame: \(difference)")
            // Then backwards and in a random order: each step goes back or jumps ahead.
            let sample = Array(Set([0, last, last / 2] + (0..<10).map { _ in Int.random(in: 0...last, using: &random) }))
            for index in sample.sorted(by: >) + sample.shuffled(using: &random) {
                XCTAssertEqual(try lazy.frame(at: index), eager.frames[index].pixels, "\(entry.file) frame \(index)")
            }
            XCTAssertEqual(lazy.memoryCost, 0, "\(entry.file): frame(at:) holds nothing")
        }
    }

    func testOrientationIsApplied() throws {
        // sd_IndexedPNG.png (687 x 123) with an eXIf chunk saying "rotate 90° clockwise" (6).
        let bytes = [UInt8](try Fixtures.imageData("png/sd_IndexedPNG.png"))
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let exif = PNGFixtures.fixingCRC([0, 0, 0, UInt8(tiff.count)] + Array("eXIf".utf8) + tiff + [0, 0, 0, 0], chunkAt: 0)
        let data = Data(bytes[..<33] + exif + bytes[33...])
        let eager = try coders.decode(data)
        let lazy = try AnimatedImage(data: data, coders: coders)
        XCTAssertEqual(lazy.orientation, .right)
        XCTAssertEqual(lazy.size, PixelSize(width: 123, height: 687))
        XCTAssertEqual(try lazy.frame(at: 0), eager.pixels)
    }

    func testMemoryCostIsTheBytesOfTheFramesHeld() throws {
        let image = try AnimatedImage(data: Fixtures.imageData("gif/sd_TestImage.gif"), coders: coders)
        let frameBytes = 50 * 50 * 4
        XCTAssertEqual(image.frameByteCount, frameBytes)
        try image.loadFrame(at: 3)
        try image.loadFrame(at: 1)
        XCTAssertEqual(image.memoryCost, 2 * frameBytes)
        XCTAssertEqual(image.decodedFrameIndices, [1, 3])
        _ = try image.frame(at: 1)
        XCTAssertEqual(image.decodeCount, 2, "a held frame is not decoded again")
        image.evictFrames { $0 == 3 }
        XCTAssertEqual(image.decodedFrameIndices, [3])
        XCTAssertEqual(image.memoryCost, frameBytes)

        try image.preloadAllFrames()
        XCTAssertTrue(image.isAllFramesLoaded)
        XCTAssertEqual(image.memoryCost, 5 * frameBytes)
        XCTAssertEqual(image.decodeCount, 6, "frame 3 was already held")
        image.evictFrames { _ in false }
        XCTAssertEqual(image.memoryCost, 5 * frameBytes, "preloaded frames stay")
        XCTAssertEqual(image.peakDecodedFrameCount, 5)
        image.unloadAllFrames()
        XCTAssertEqual(image.memoryCost, 0)
        XCTAssertFalse(image.isAllFramesLoaded)
    }

    func testImageGivesThePosterOrEveryFrame() throws {
        let data = try Fixtures.imageData("png/apng_delay.png")
        let eager = try coders.decode(data)
        let lazy = try AnimatedImage(data: data, coders: coders)
        let poster = try lazy.image(firstFrameOnly: true)
        XCTAssertEqual(poster.frames.count, 1)
        XCTAssertFalse(poster.isAnimated)
        XCTAssertEqual(poster.pixels, eager.pixels)
        let all = try lazy.image()
        XCTAssertEqual(all, eager, "all frames, durations and loop count as the eager decode")
        XCTAssertEqual(all.memoryCost, eager.memoryCost)
    }

    func testDataThatCannotBeAnimatedGivesTypedErrors() throws {
        func error(_ data: Data) -> AnimatedImageError? {
            do {
                _ = try AnimatedImage(data: data, coders: coders)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error(Data("not an image".utf8)), .notAnimatable(.undefined))
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>"#.utf8)
        XCTAssertEqual(error(svg), .notAnimatable(.svg), "SDWebImage's SDAnimatedImage is nil for SVG")
        XCTAssertEqual(try coders.decode(svg).pixelWidth, 8, "the drawing itself decodes")
        XCTAssertEqual(error(Data()), .decoding(.empty))
        XCTAssertEqual(error(try Fixtures.imageData("gif/pil_decompression_bomb.gif")), .decoding(.truncated(.gif)))
        let gif = try Fixtures.imageData("gif/sd_TestImage.gif")
        guard case .decoding(let cause)? = error(gif.prefix(20)) else {
            return XCTFail("a truncated GIF is a decoding error")
        }
        XCTAssertNotEqual(cause, .empty)
        let image = try AnimatedImage(data: gif, coders: coders)
        XCTAssertThrowsError(try image.frame(at: 5)) {
            XCTAssertEqual($0 as? AnimatedImageError, .frameOutOfRange(index: 5, frameCount: 5))
        }
        XCTAssertThrowsError(try AnimatedImage(data: gif, coders: ImageCoders())) {
            XCTAssertEqual($0 as? AnimatedImageError, .notAnimatable(.gif), "no coder registered for GIF")
        }
    }

    /// SDWebImage makes a one-frame animated image from still data, so a player shows any image.
    func testStillDataIsAOneFrameAnimation() throws {
        let jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
        let still = try AnimatedImage(data: jpeg, coders: coders)
        XCTAssertEqual(still.frameCount, 1)
        XCTAssertEqual(still.format, .jpeg)
        let frame = try still.frame(at: 0)
        let decoded = try coders.decode(jpeg)
        XCTAssertEqual([frame.width, frame.height], [decoded.pixelWidth, decoded.pixelHeight])
        XCTAssertEqual(frame.bytes, decoded.pixels.bytes)
    }

    /// SDWebImage's serialiser keeps an animation: one of no known format, stored without its
    /// bytes, is written as an animated GIF, not a JPEG still.
    func testAnAnimationStoredWithoutItsBytesIsKeptAnimated() throws {
        let frames = [RGBA(r: 255, g: 0, b: 0, a: 255), RGBA(r: 0, g: 0, b: 255, a: 255)].map {
            ImageFrame(pixels: PixelBuffer(width: 8, height: 8, fill: $0), duration: 0.1)
        }
        let animation = Image(frames: frames, loopCount: 0)
        let bytes = try XCTUnwrap(try coders.cacheBytes(for: animation, data: nil, key: "made", serializer: nil))
        XCTAssertEqual(ImageFormat(detecting: bytes), .gif)
        let stored = try coders.decode(bytes)
        XCTAssertEqual(stored.frames.count, 2)
        XCTAssertEqual(stored.frames[1].pixels[0, 0], RGBA(r: 0, g: 0, b: 255, a: 255))
    }
}
