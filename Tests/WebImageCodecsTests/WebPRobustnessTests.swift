import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Bad input: truncated, damaged, random and oversized files give typed errors (or a valid
/// image), never a crash, a hang or an out-of-memory kill.
final class WebPRobustnessTests: XCTestCase {
    let coder = WebPCoder()
    static let samples = ["lwt_lossless1.webp", "lwt_lossy_alpha4.webp", "pil_transparent.webp",
                          "sd_TestImageStatic.webp", "sd_TestImageAnimated.webp"]

    func testTruncationAtOneHundredPoints() throws {
        for name in Self.samples {
            let data = try Fixtures.imageData("webp/" + name)
            var truncatedErrors = 0
            for step in 0..<100 {
                let prefix = data.prefix(data.count * step / 100)
                assertTypedOutcome(prefix, "\(name) cut at \(prefix.count)")
                if case .truncated(.webp)? = decodeError(prefix) { truncatedErrors += 1 }
                if let partial = coder.decodePartial(prefix, options: ImageDecodeOptions()) {
                    XCTAssertEqual(partial.pixels.bytes.count, partial.pixelWidth * partial.pixelHeight * 4)
                }
            }
            XCTAssertGreaterThan(truncatedErrors, 50, "\(name): most cuts report truncation")
        }
    }

    func testDamagedBytesNeverCrash() throws {
        var random = SeededRandom(seed: 0x5EB9)
        for name in Self.samples {
            let data = try Fixtures.imageData("webp/" + name)
            for _ in 0..<40 {
                var damaged = data
                for _ in 0..<3 {
                    let index = damaged.startIndex + Int.random(in: 0..<damaged.count, using: &random)
                    damaged[index] = UInt8.random(in: 0...255, using: &random)
                }
                assertTypedOutcome(damaged, "\(name) damaged")
                _ = coder.decodePartial(damaged, options: ImageDecodeOptions())
            }
        }
    }

    func testEmptyZeroAndRandomBytes() {
        XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .empty)
        }
        XCTAssertFalse(coder.canDecode(Data(count: 64)))
        XCTAssertThrowsError(try coder.decode(Data(count: 1000), options: ImageDecodeOptions())) {
            XCTAssertTrue($0 is ImageCodingError)
        }
        var random = SeededRandom(seed: 42)
        for length in [1, 12, 30, 100, 5000] {
            let noise = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            XCTAssertThrowsError(try coder.decode(noise, options: ImageDecodeOptions())) { XCTAssertTrue($0 is ImageCodingError) }
            // Noise behind a valid RIFF/WEBP header reaches libwebp's own parsers.
            let header = Data("RIFF".utf8) + Data([UInt8(truncatingIfNeeded: length + 4), UInt8(truncatingIfNeeded: (length + 4) >> 8), 0, 0])
                + Data("WEBP".utf8)
            for chunk in ["VP8 ", "VP8L", "VP8X", "ANIM"] {
                let file = header + Data(chunk.utf8) + noise
                XCTAssertTrue(coder.canDecode(file))
                assertTypedOutcome(file, "\(chunk) + \(length) random bytes")
                _ = coder.decodePartial(file, options: ImageDecodeOptions())
            }
        }
    }

    func testHugeCanvasIsRefusedBeforeAllocating() {
        // A VP8X header claiming a 16383 × 16383 animated canvas and nothing else.
        let side: [UInt8] = [0xFE, 0x3F, 0x00]  // 16383 − 1, little-endian 24-bit
        let vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0] + [0x02, 0, 0, 0] + side + side
        let bomb = Data(Array("RIFF".utf8) + [UInt8(4 + vp8x.count), 0, 0, 0] + Array("WEBP".utf8) + vp8x)
        XCTAssertThrowsError(try coder.decode(bomb, options: ImageDecodeOptions(maxPixels: 1000))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 16383, height: 16383, limit: 1000))
        }
        XCTAssertThrowsError(try coder.decode(bomb, options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError,
                           .tooManyPixels(width: 16383, height: 16383, limit: ImageDecodeOptions.defaultMaxPixels))
        }
        XCTAssertThrowsError(try coder.makeFrameReader(for: bomb, options: ImageDecodeOptions(maxPixels: 1000))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 16383, height: 16383, limit: 1000))
        }
        XCTAssertNil(coder.decodePartial(bomb, options: ImageDecodeOptions(maxPixels: 1000)))
    }

    func testStillImageOverThePixelLimit() throws {
        let data = try Fixtures.imageData("webp/sd_TestImageStatic.webp")
        XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions(maxPixels: 550 * 368 - 1))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 550, height: 368, limit: 550 * 368 - 1))
        }
    }

    // MARK: - Helpers

    private func decodeError(_ data: Data) -> ImageCodingError? {
        do {
            _ = try coder.decode(data, options: ImageDecodeOptions())
            return nil
        } catch {
            return error as? ImageCodingError
        }
    }

    /// Decoding `data` either gives a well-formed image or throws an ``ImageCodingError``.
    private func assertTypedOutcome(_ data: Data, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let image = try coder.decode(data, options: ImageDecodeOptions())
            for frame in image.frames {
                XCTAssertEqual(frame.pixels.bytes.count, frame.pixels.width * frame.pixels.height * 4, message, file: file, line: line)
            }
        } catch {
            XCTAssertTrue(error is ImageCodingError, "\(message): \(error)", file: file, line: line)
        }
    }
}
