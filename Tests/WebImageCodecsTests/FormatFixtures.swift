import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// What `scripts/make-format-fixtures.py` put in `Tests/Fixtures/formats`: the quadrant picture
/// its HEIC, AVIF and JPEG XL files are made from, and checks against it.
enum FormatFixtures {
    /// quadrants.png's colours: red top left, green top right, blue bottom left, white bottom right.
    static let red = RGBA(r: 230, g: 20, b: 20)
    static let green = RGBA(r: 20, g: 200, b: 40)
    static let blue = RGBA(r: 30, g: 40, b: 220)
    static let white = RGBA(r: 240, g: 240, b: 240)

    /// The file at `path` below `Tests/Fixtures/formats` (`"heic/quadrants.heic"`) decoded by `coder`.
    static func decode(_ path: String, with coder: any ImageCoder,
                       _ options: ImageDecodeOptions = ImageDecodeOptions()) throws -> Image {
        try coder.decode(Fixtures.formatData(path), options: options)
    }

    /// The colours of `sources/frames/f0…f2.png`, the frames of `animated.avif` and `animated.jxl`.
    static let frameColours = [RGBA(r: 220, g: 30, b: 30), RGBA(r: 30, g: 200, b: 30), RGBA(r: 30, g: 30, b: 220)]

    /// Asserts that `image` is the fixtures' animation: three frames of ``frameColours``
    /// (within `tolerance`) lasting 100, 200 and 300 ms, looping forever.
    static func assertTheAnimation(_ image: Image, tolerance: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.frames.count, 3, file: file, line: line)
        XCTAssertEqual(image.durations.map { ($0 * 1000).rounded() }, [100, 200, 300], file: file, line: line)
        XCTAssertEqual(image.loopCount, 0, file: file, line: line)
        for (frame, colour) in zip(image.frames, frameColours) {
            assertClose(frame.pixels[5, 5], colour, tolerance: tolerance, "frame colour", file: file, line: line)
        }
    }

    /// A source PNG of the fixtures (`quadrants.png`, `alpha.png`, `gradient16.png`), decoded.
    static func source(_ name: String) throws -> PixelBuffer {
        try PNGCoder().decode(Fixtures.formatData("sources/\(name)"), options: ImageDecodeOptions()).pixels
    }

    /// Asserts the colours at the centres of the four quadrants of `pixels`, top left, top
    /// right, bottom left, bottom right, within `tolerance`: how an orientation shows.
    static func assertQuadrants(_ pixels: PixelBuffer, _ expected: [RGBA], tolerance: Int = 8, _ message: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        let (w, h) = (pixels.width, pixels.height)
        let centres = [(w / 4, h / 4), (w * 3 / 4, h / 4), (w / 4, h * 3 / 4), (w * 3 / 4, h * 3 / 4)]
        for ((x, y), want) in zip(centres, expected) {
            assertClose(pixels[x, y], want, tolerance: tolerance, "\(message): pixel (\(x), \(y))", file: file, line: line)
        }
    }

    /// Asserts that `pixels` is within `maximum` and `mean` of `expected` (same size required).
    static func assertNear(_ pixels: PixelBuffer, _ expected: PixelBuffer, maximum: Int, mean: Double,
                           _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        guard pixels.width == expected.width, pixels.height == expected.height else {
            return XCTFail("\(message): \(pixels.width)x\(pixels.height) != \(expected.width)x\(expected.height)",
                           file: file, line: line)
        }
        let difference = PixelDifference(pixels, expected)
        XCTAssertTrue(difference.isWithin(maximum: maximum, mean: mean), "\(message): \(difference)", file: file, line: line)
    }

    /// `pixels` rounded from 16 to 8 bits as the references round: `round(v × 255 / 65535)`;
    /// `wide` holds the 16-bit samples (RGBA) the PNG stores.
    static func rounded(_ wide: [UInt16], width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: wide.map { UInt8((Int($0) * 255 + 32767) / 65535) })
    }

    /// gradient16.png's samples, as make-format-fixtures.py computes them, with opaque alpha.
    static func gradient16() -> [UInt16] {
        var samples: [UInt16] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let (red, green) = (x * 65535 / 63, y * 65535 / 47)
                samples += [UInt16(red), UInt16(green), UInt16((red + green) / 2), 65535]
            }
        }
        return samples
    }

    /// Asserts that `body` throws an ``ImageCodingError`` (any case), not another error or nothing
    /// that breaks the image's invariants.
    static func assertTypedFailureOrImage(_ body: () throws -> Image, _ message: String,
                                          file: StaticString = #filePath, line: UInt = #line) {
        do {
            let image = try body()
            XCTAssertEqual(image.pixels.bytes.count, image.pixelWidth * image.pixelHeight * 4, message, file: file, line: line)
        } catch {
            XCTAssertTrue(error is ImageCodingError, "\(message): untyped error \(error)", file: file, line: line)
        }
    }
}
