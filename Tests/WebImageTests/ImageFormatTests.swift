import Foundation
import WebImage
import WebImageTestSupport
import XCTest

final class ImageFormatTests: XCTestCase {
    func testEveryCorpusFileIsRecognisedFromItsBytes() throws {
        let expected: [String: ImageFormat] = [
            "png": .png, "apng": .png, "jpg": .jpeg, "gif": .gif, "webp": .webp,
            "heic": .heic, "heif": .heif, "heics": .heif, "avif": .avif, "jxl": .jxl,
            "pdf": .pdf, "svg": .svg,
        ]
        let corpus = try Fixtures.requireFullCorpus(for: "format detection of every image of the manifest")
        for entry in try corpus.manifest() where entry.file != "gif/pil_zero_width.gif" {
            let url = corpus.image(entry.file)
            let want = try XCTUnwrap(expected[url.pathExtension.lowercased()], entry.file)
            XCTAssertEqual(ImageFormat(detecting: try Data(contentsOf: url)), want, entry.file)
        }
    }

    func testSignaturesOfFormatsWithoutFixtures() {
        XCTAssertEqual(ImageFormat(detecting: [0x49, 0x49, 0x2A, 0x00, 1, 2]), .tiff)
        XCTAssertEqual(ImageFormat(detecting: [0x4D, 0x4D, 0x00, 0x2A, 1, 2]), .tiff)
        XCTAssertEqual(ImageFormat(detecting: Array("BM6\0\0\0".utf8)), .bmp)
        XCTAssertEqual(ImageFormat(detecting: [0x00, 0x00, 0x01, 0x00, 0x01, 0x00]), .ico)
        XCTAssertEqual(ImageFormat(detecting: [0xFF, 0x0A, 0x00]), .jxl)
        XCTAssertEqual(ImageFormat(detecting: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A]), .jxl)
        XCTAssertEqual(ImageFormat(detecting: Array("\u{FEFF}  <svg xmlns='http://www.w3.org/2000/svg'/>".utf8)), .svg)
        XCTAssertEqual(ImageFormat(detecting: Array("<?xml version='1.0'?>\n<!DOCTYPE svg><svg/>".utf8)), .svg)
        XCTAssertEqual(ImageFormat(detecting: Array("<!-- Generator: Adobe Illustrator -->\n<svg/>".utf8)), .svg)
        XCTAssertEqual(ImageFormat(detecting: Array("<!DOCTYPE html><!-- page --><html><body><svg/></body></html>".utf8)), .undefined,
                       "an HTML page with an inline <svg> is not SVG")
        XCTAssertEqual(ImageFormat(detecting: Array("<?xml version='1.0'?><html><svg/></html>".utf8)), .undefined)
        XCTAssertEqual(ImageFormat(detecting: Array("\0\0\0\u{18}ftypavis".utf8)), .avif)
        XCTAssertEqual(ImageFormat(detecting: Array("\0\0\0\u{18}ftypmsf1".utf8)), .heif)
        XCTAssertEqual(ImageFormat(detecting: Array("\0\0\0\u{18}ftypmp42".utf8)), .undefined)
    }

    func testWhatIsNotAnImageIsUndefined() {
        XCTAssertEqual(ImageFormat(detecting: Data()), .undefined)
        XCTAssertEqual(ImageFormat(detecting: Data("<!doctype html><html>".utf8)), .undefined)
        XCTAssertEqual(ImageFormat(detecting: [0xFF, 0xD8]), .undefined, "two bytes are not yet a JPEG")
        XCTAssertEqual(ImageFormat(detecting: Array("<?xml version='1.0'?><rss/>".utf8)), .undefined)
    }
}
