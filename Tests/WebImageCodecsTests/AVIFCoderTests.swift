import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `AVIFCoder` on the corpus' AVIF: a 10-bit 4:2:0 BT.2020 PQ still of 2048 × 858.
final class AVIFCoderTests: XCTestCase {
    private let coder = AVIFCoder()

    private func fixture() throws -> Data {
        try Fixtures.imageData("other/sd_TestHDR.avif")
    }

    func testTheFixtureDecodesAsPillowDoes() throws {
        let data = try fixture()
        XCTAssertTrue(coder.canDecode(data))
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.pixelWidth, 2048)
        XCTAssertEqual(image.pixelHeight, 858)
        XCTAssertEqual(image.format, .avif)
        XCTAssertEqual(image.frames.count, 1)
        XCTAssertEqual(image.loopCount, 1)
        XCTAssertEqual(image.orientation, .up)
        XCTAssertFalse(image.pixels.hasTransparency)
        // Pillow's values (images/ref/sd_TestHDR.avif.f0.png); libyuv's rounding differs by ≤ 3.
        let reference: [(x: Int, y: Int, RGBA)] = [
            (0, 0, RGBA(r: 90, g: 98, b: 113)),
            (1243, 215, RGBA(r: 250, g: 224, b: 186)),
            (1896, 478, RGBA(r: 0, g: 0, b: 0)),
            (1500, 100, RGBA(r: 154, g: 148, b: 137)),
            (300, 600, RGBA(r: 99, g: 101, b: 54)),
            (1024, 50, RGBA(r: 129, g: 129, b: 129)),
            (2047, 857, RGBA(r: 110, g: 112, b: 58)),
        ]
        for (x, y, want) in reference {
            assertClose(image.pixels[x, y], want, "pixel (\(x), \(y)) against Pillow's")
        }
    }

    func testTheRegistryOfDefaultCodersDecodesAVIF() throws {
        let image = try ImageCoders(WebImageCodecs.defaultCoders).decode(try fixture())
        XCTAssertEqual(image.format, .avif)
        XCTAssertEqual(image.pixelWidth, 2048)
    }

    func testAThumbnailIsResampledToTheBox() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))
        let image = try coder.decode(try fixture(), options: options)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 256, height: 107))
    }

    func testThePixelLimitIsCheckedBeforeDecoding() throws {
        let options = ImageDecodeOptions(maxPixels: 1_000_000)
        XCTAssertThrowsError(try coder.decode(try fixture(), options: options)) { error in
            XCTAssertEqual(error as? ImageCodingError, .tooManyPixels(width: 2048, height: 858, limit: 1_000_000))
        }
    }

    func testTheFrameReaderReportsOneFrameOfOneSecond() throws {
        let reader = try coder.makeFrameReader(for: try fixture(), options: ImageDecodeOptions())
        XCTAssertEqual(reader.canvasSize, PixelSize(width: 2048, height: 858))
        XCTAssertEqual(reader.frameCount, 1)
        XCTAssertEqual(reader.duration(at: 0), 1, accuracy: 0.001)
        XCTAssertEqual(try reader.frame(at: 0).width, 2048)
        XCTAssertThrowsError(try reader.frame(at: 1)) { XCTAssertTrue($0 is ImageCodingError) }
    }

    func testTruncatedFilesFailAsTruncated() throws {
        let data = try fixture()
        for length in [12, 100, 280, 1_000, 50_000, data.count / 2, data.count - 1] {
            XCTAssertThrowsError(try coder.decode(data.prefix(length), options: ImageDecodeOptions()),
                                 "\(length) bytes") { error in
                XCTAssertEqual(error as? ImageCodingError, .truncated(.avif), "\(length) bytes: \(error)")
            }
        }
        XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) { error in
            XCTAssertEqual(error as? ImageCodingError, .empty)
        }
    }

    func testRandomAndDamagedBytesGiveTypedErrors() throws {
        let data = try fixture()
        var random = SeededRandom(seed: 0xA11F)
        var inputs = [Data(random.bytes(100_000)), data.prefix(32) + random.bytes(100_000)]
        for position in stride(from: 0x20, to: 0x11A, by: 7) {  // the `meta` box: every few bytes
            var damaged = data
            damaged[position] ^= 0xFF
            inputs.append(damaged)
        }
        var payload = data
        payload.replaceSubrange(0x200..<0x2200, with: random.bytes(0x2000))  // the AV1 payload
        inputs.append(payload)
        for input in inputs {
            do {
                let image = try coder.decode(input, options: ImageDecodeOptions())
                XCTAssertEqual(image.pixels.bytes.count, image.pixelWidth * image.pixelHeight * 4)
            } catch {
                XCTAssertTrue(error is ImageCodingError, "untyped error: \(error)")
            }
        }
        XCTAssertFalse(coder.canDecode(inputs[0]))
    }
}
