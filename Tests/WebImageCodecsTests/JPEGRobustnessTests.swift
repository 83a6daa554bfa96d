import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Bad input gives a typed error (or, for a partial decode, an image or nil): never a crash.
final class JPEGRobustnessTests: XCTestCase {
    private let coder = JPEGCoder()

    private func assertTypedError(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions(),
                                  _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try coder.decode(data, options: options), message, file: file, line: line) {
            XCTAssertTrue($0 is ImageCodingError, "\(message): \($0)", file: file, line: line)
        }
    }

    /// Pillow rejects every strict prefix of a JPEG, even one missing only its EOI; so do we.
    /// The partial decoder returns nil or a full-size incomplete image for each.
    func testTruncationAtHundredPoints() throws {
        for name in ["testjfif_256.jpg", "testjfif_256.progressive.jpg"] {
            let data = try Fixtures.benchData(name)
            let full = try coder.decode(data, options: ImageDecodeOptions())
            for step in 0..<100 {
                let length = 1 + step * (data.count - 1) / 100
                let prefix = data.prefix(length)
                assertTypedError(prefix, "\(name) cut at \(length)")
                if let partial = coder.decodePartial(prefix, options: ImageDecodeOptions()) {
                    XCTAssertEqual(partial.pixelWidth, full.pixelWidth)
                    XCTAssertEqual(partial.pixelHeight, full.pixelHeight)
                    XCTAssertTrue(partial.isIncomplete, "\(name) cut at \(length)")
                }
            }
        }
    }

    /// Entropy-coded data cut short and closed with an EOI is damage, not an image.
    func testDataEndingEarlyBeforeEOIIsCorrupt() throws {
        let data = try Fixtures.benchData("testjfif_256.jpg")
        let cut = data.prefix(data.count / 2) + Data([0xFF, 0xD9])
        XCTAssertThrowsError(try coder.decode(cut, options: ImageDecodeOptions())) {
            guard case .corrupt(.jpeg, _) = $0 as? ImageCodingError else { return XCTFail("\($0)") }
        }
        XCTAssertNotNil(coder.decodePartial(cut, options: ImageDecodeOptions()))
    }

    func testMissingEOIIsTruncated() throws {
        let data = try Fixtures.benchData("testjfif_256.jpg")
        XCTAssertThrowsError(try coder.decode(data.dropLast(2), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .truncated(.jpeg))
        }
    }

    func testZeroBytesIsEmpty() {
        XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .empty)
        }
        XCTAssertNil(coder.decodePartial(Data(), options: ImageDecodeOptions()))
    }

    func testRandomBytesGiveTypedErrors() {
        var random = SeededRandom(seed: 42)
        for length in [1, 2, 3, 10, 100, 1000, 10_000] {
            assertTypedError(Data(random.bytes(length)), "\(length) random bytes")
            // The same behind a JPEG signature, so libjpeg parses further.
            assertTypedError(Data([0xFF, 0xD8, 0xFF] + random.bytes(length)), "SOI + \(length) random bytes")
        }
    }

    /// Damaged entropy data decodes with libjpeg's concealment or fails typed.
    func testFlippedBytesNeverCrash() throws {
        let data = try Fixtures.benchData("testjfif_256.progressive.jpg")
        var random = SeededRandom(seed: 7)
        for _ in 0..<100 {
            var bytes = [UInt8](data)
            for _ in 0..<8 {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            do {
                let image = try coder.decode(Data(bytes), options: ImageDecodeOptions())
                XCTAssertEqual(image.pixels.bytes.count, image.pixelWidth * image.pixelHeight * 4)
            } catch {
                XCTAssertTrue(error is ImageCodingError, "\(error)")
            }
            _ = coder.decodePartial(Data(bytes), options: ImageDecodeOptions())
        }
    }

    /// A progressive file repeating its first scan 1100 times is refused after 1000 scans rather
    /// than decoded scan after scan.
    func testThousandsOfScansAreRefused() throws {
        let data = [UInt8](try Fixtures.benchData("testjfif_256.progressive.jpg"))
        func isMarker(_ i: Int) -> Bool {
            data[i] == 0xFF && data[i + 1] != 0x00 && !(0xD0...0xD7).contains(data[i + 1])
        }
        let firstScan = try XCTUnwrap((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        let scanEnd = try XCTUnwrap((firstScan + 2..<data.count - 1).first(where: isMarker))
        var bytes = Array(data[..<firstScan])
        for _ in 0..<1100 { bytes += data[firstScan..<scanEnd] }
        bytes += data[scanEnd...]
        XCTAssertThrowsError(try coder.decode(Data(bytes), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .corrupt(.jpeg, "too many scans (more than 1000)"))
        }
    }

    /// A header claiming 65000 x 65000 fails fast, before any pixel memory is taken.
    func testHugeHeaderIsRefusedQuickly() throws {
        let spent = try ThreadCPUTime.spent {
            let huge = JPEGTestFixtures.patchingFrameSize(try Fixtures.imageData("jpeg/pil_hopper.jpg"),
                                                          width: 65000, height: 65000)
            XCTAssertThrowsError(try coder.decode(huge, options: ImageDecodeOptions())) {
                XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 65000, height: 65000, limit: 100_000_000))
            }
            XCTAssertNil(coder.decodePartial(huge, options: ImageDecodeOptions()))
        }
        XCTAssertLessThan(spent, .seconds(2))
    }

    /// A thumbnail of a huge baseline header decodes at 1/8 (8125 x 8125 fits the limit), and
    /// fails as soon as the entropy-coded data runs into the EOI, rather than decoding filler.
    func testHugeBaselineThumbnailFailsAtTheEndOfData() throws {
        let spent = try ThreadCPUTime.spent {
            let huge = JPEGTestFixtures.patchingFrameSize(try Fixtures.imageData("jpeg/pil_hopper.jpg"),
                                                          width: 65000, height: 65000)
            let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))
            XCTAssertEqual(try JPEGCoder.decodedSize(of: huge, options: options), PixelSize(8125))
            XCTAssertThrowsError(try coder.decode(huge, options: options)) {
                XCTAssertEqual($0 as? ImageCodingError,
                               .corrupt(.jpeg, "Corrupt JPEG data: premature end of data segment"))
            }
        }
        XCTAssertLessThan(spent, .seconds(2))
    }

    /// A progressive JPEG keeps full-size coefficients whatever the scale: a thumbnail of a huge
    /// progressive header is refused by the memory cap instead of allocating gigabytes.
    func testHugeProgressiveThumbnailIsRefused() throws {
        let spent = try ThreadCPUTime.spent {
            let huge = JPEGTestFixtures.patchingFrameSize(try Fixtures.benchData("testjfif_256.progressive.jpg"),
                                                          width: 65000, height: 65000)
            XCTAssertThrowsError(try coder.decode(huge, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(256)))) {
                XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 65000, height: 65000, limit: 100_000_000))
            }
        }
        XCTAssertLessThan(spent, .seconds(2))
    }
}
