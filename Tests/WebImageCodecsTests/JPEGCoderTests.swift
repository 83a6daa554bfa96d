import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Decoding the corpus: sizes, orientation, colour spaces and pixels against Pillow's refs.
final class JPEGCoderTests: XCTestCase {
    private let coder = JPEGCoder()

    func testEveryManifestJPEGDecodesToItsSizeOrFailsTyped() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "every JPEG of the manifest")
        let entries = try corpus.manifest(kind: "jpeg")
        XCTAssertGreaterThanOrEqual(entries.count, 19)
        for entry in entries {
            let data = try corpus.imageData(entry.file)
            XCTAssertTrue(coder.canDecode(data), entry.file)
            if entry.decodes {
                let image = try coder.decode(data, options: ImageDecodeOptions())
                XCTAssertEqual(image.pixelWidth, entry.width, entry.file)
                XCTAssertEqual(image.pixelHeight, entry.height, entry.file)
                XCTAssertEqual(Int(image.orientation.rawValue), entry.orientation, entry.file)
                XCTAssertEqual(image.format, .jpeg)
                XCTAssertEqual(image.frames.count, 1)
                XCTAssertFalse(image.isIncomplete)
            } else {
                XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions()), entry.file) {
                    XCTAssertTrue($0 is ImageCodingError, "\(entry.file): \($0)")
                }
            }
        }
    }

    func testCanDecodeOnlyJPEG() throws {
        XCTAssertTrue(coder.canDecode(try Fixtures.imageData("jpeg/pil_hopper.jpg")))
        XCTAssertFalse(coder.canDecode(try Fixtures.benchData("testjfif_256.png")))
        XCTAssertFalse(coder.canDecode(Data()))
    }

    /// Pixel values read from Pillow's refs (`images/ref/NAME.f0.png`).
    func testPixelsMatchPillow() throws {
        let expectations: [(String, [(x: Int, y: Int, RGBA)])] = [
            ("ljt_testimgari.jpg", [(0, 0, RGBA(r: 48, g: 47, b: 45)), (113, 74, RGBA(r: 242, g: 45, b: 52)),
                                    (226, 148, RGBA(r: 40, g: 47, b: 39))]),
            ("pil_pil_sample_cmyk.jpg", [(0, 0, RGBA(r: 255, g: 13, b: 25)), (70, 30, RGBA(r: 255, g: 15, b: 24)),
                                         (50, 50, RGBA(r: 1, g: 4, b: 5))]),
            ("sd_MonochromeTestImage.jpg", [(10, 10, RGBA(r: 255, g: 255, b: 255)), (82, 60, RGBA(r: 73, g: 73, b: 73))]),
            ("pil_hopper_orientation_6.jpg", [(0, 0, RGBA(r: 25, g: 21, b: 72)), (127, 0, RGBA(r: 82, g: 115, b: 194)),
                                              (0, 127, RGBA(r: 198, g: 162, b: 138)), (64, 64, RGBA(r: 176, g: 83, b: 66))]),
        ]
        for (name, points) in expectations {
            try assertPixels(of: try Fixtures.imageData("jpeg/" + name), points, name)
        }
    }

    /// The 12 MP photo's pixels, from Pillow's ref, when the full corpus is present.
    func testPixelsOfTheLargePhotoMatchPillow() throws {
        try assertPixels(of: try Fixtures.twelveMegapixelPhoto(), [
            (0, 0, RGBA(r: 154, g: 144, b: 132)), (2016, 1512, RGBA(r: 167, g: 162, b: 142)),
            (4031, 3023, RGBA(r: 178, g: 181, b: 170)),
        ], "sd_TestJFIF.jpg")
    }

    private func assertPixels(of data: Data, _ points: [(x: Int, y: Int, RGBA)], _ name: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try coder.decode(data, options: ImageDecodeOptions())
        for (x, y, expected) in points {
            assertClose(image.pixels[x, y], expected, "\(name) (\(x), \(y))", file: file, line: line)
        }
    }

    /// The arithmetic-coded and the Huffman-coded copy of one image decode alike (Pillow: same hash).
    func testArithmeticCodingMatchesHuffman() throws {
        let ari = try coder.decode(try Fixtures.imageData("jpeg/ljt_testimgari.jpg"), options: ImageDecodeOptions())
        let int = try coder.decode(try Fixtures.imageData("jpeg/ljt_testimgint.jpg"), options: ImageDecodeOptions())
        XCTAssertEqual(ari.pixels, int.pixels)
    }

    /// Every orientation 2–8 of Pillow's hopper, turned upright, looks like the upright hopper
    /// (mean error about 3.5 from recompression; a wrong transform gives tens).
    func testAllOrientationsComeOutUpright() throws {
        let upright = try coder.decode(try Fixtures.imageData("jpeg/pil_hopper.jpg"), options: ImageDecodeOptions())
        for value in 2...8 {
            let image = try coder.decode(try Fixtures.imageData("jpeg/pil_hopper_orientation_\(value).jpg"),
                                         options: ImageDecodeOptions())
            XCTAssertEqual(image.orientation.rawValue, UInt8(value))
            XCTAssertLessThan(PixelDifference(image.pixels, upright.pixels).mean, 5, "orientation \(value)")
        }
    }

    /// sd_TestJFIF.jpg states its orientation (3) only in XMP, as Pillow reads it.
    func testOrientationFromXMP() throws {
        let image = try coder.decode(try Fixtures.twelveMegapixelPhoto(),
                                     options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(400)))
        XCTAssertEqual(image.orientation, .down)
    }

    func testScaleFactorIsKept() throws {
        let image = try coder.decode(try Fixtures.imageData("jpeg/sd_TestImage.jpg"),
                                     options: ImageDecodeOptions(scaleFactor: 2))
        XCTAssertEqual(image.scale, 2)
        XCTAssertEqual(image.width, 40)
    }

    func testTwelveBitIsUnsupported() throws {
        XCTAssertThrowsError(try coder.decode(try Fixtures.imageData("jpeg/ljt_monkey12.jpg"), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .unsupportedFeature(.jpeg, "12-bit samples"))
        }
    }

    func testPillowsTruncatedFileFailsAsTruncated() throws {
        XCTAssertThrowsError(try coder.decode(try Fixtures.imageData("jpeg/pil_truncated_jpeg.jpg"), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .truncated(.jpeg))
        }
    }
}
