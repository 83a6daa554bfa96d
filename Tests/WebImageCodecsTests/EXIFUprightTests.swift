import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// A source's whole EXIF block kept in a result (``EXIF/upright(fromTIFF:width:height:)``), on a
/// Photoshop file's block nobody here made (`pil_sample_cmyk.jpg`: IFD0 with Orientation 1, an
/// EXIF directory with its 100 × 100 size, IFD1 with a 2191-byte JPEG thumbnail) and on
/// Pillow's rotated samples: Pillow reads the kept tags back, the orientation is 1, the size the
/// result's, and nothing of the thumbnail is left.
final class EXIFUprightTests: XCTestCase {
    private func block(_ path: String) throws -> [UInt8] {
        try XCTUnwrap(EXIFBlock.find(in: try Fixtures.imageData(path)), path)
    }

    func testTheSizeIsTheResultsAndTheThumbnailIsGone() throws {
        let source = try block("jpeg/pil_pil_sample_cmyk.jpg")
        let kept = try XCTUnwrap(EXIF.upright(fromTIFF: source, width: 40, height: 30))
        XCTAssertEqual(kept.count, source.count, "every other byte stays where it was")
        let fields = Dictionary(EXIFField.fields(fromTIFF: kept).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(fields["PixelXDimension"], "40")
        XCTAssertEqual(fields["PixelYDimension"], "30")
        XCTAssertEqual(fields["Software"], "Adobe Photoshop CS Macintosh")
        XCTAssertEqual(fields["DateTime"], "2009:03:06 22:15:00")
        // The thumbnail (IFD1 at 208, its JPEG at 302, 2191 bytes) is unlinked and zeroed.
        let sourceThumbnail = source[302..<(302 + 2191)]
        XCTAssertEqual(Array(sourceThumbnail.prefix(2)), [0xFF, 0xD8], "the source's thumbnail is a JPEG where its IFD1 says")
        XCTAssertTrue(kept[302..<(302 + 2191)].allSatisfy { $0 == 0 })
        XCTAssertTrue(kept[208..<(208 + 2 + 6 * 12 + 4)].allSatisfy { $0 == 0 }, "the thumbnail's directory")
        XCTAssertNil(kept.firstRange(of: [0xFF, 0xD8, 0xFF]), "no JPEG left in the block")
    }

    func testTheOrientationIsOneAsPillowReadsIt() throws {
        let folder = try TemporaryFolder(self)
        let source = try block("jpeg/pil_hopper_orientation_6.jpg")
        XCTAssertEqual(EXIF.orientation(fromTIFF: source), .right)
        let kept = try XCTUnwrap(EXIF.upright(fromTIFF: source, width: 8, height: 8))
        XCTAssertEqual(EXIF.orientation(fromTIFF: kept), .up)
        var options = ImageEncodeOptions()
        options.exif = kept
        let url = folder.appending("upright.jpg")
        let image = Image(pixels: PixelBuffer(width: 8, height: 8, fill: RGBA(r: 10, g: 120, b: 200)))
        try ImageCoders(WebImageCodecs.defaultCoders).encode(image, as: .jpeg, options: options).write(to: url)
        let orientation = try Pillow.run("""
            import sys
            from PIL import Image
            print(Image.open(sys.argv[1]).getexif().get(0x0112))
            """, [url.path])
        XCTAssertEqual(orientation.trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }

    /// Hostile blocks: cut anywhere, or with every offset pointing past the end, the rewrite
    /// returns a block of the same length or nil, never traps.
    func testCutAndDamagedBlocksNeverTrap() throws {
        let source = try block("jpeg/pil_pil_sample_cmyk.jpg")
        for length in stride(from: 0, through: source.count, by: 7) {
            let cut = Array(source.prefix(length))
            if let kept = EXIF.upright(fromTIFF: cut, width: 1, height: 1) { XCTAssertEqual(kept.count, cut.count) }
        }
        var damaged = source
        for at in stride(from: 8, to: 300, by: 12) { damaged.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0xF0]) }
        XCTAssertNotNil(EXIF.upright(fromTIFF: damaged, width: 1, height: 1))
        XCTAssertNil(EXIF.upright(fromTIFF: Array("not exif at all".utf8), width: 1, height: 1))
    }
}
