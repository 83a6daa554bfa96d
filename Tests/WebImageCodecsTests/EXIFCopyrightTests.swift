import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// The copyright tags a server keeps of a source's EXIF: ``EXIF/copyright(fromTIFF:)`` picks
/// Artist, Copyright and DateTime out of a block, JPEG, PNG, WebP, AVIF and HEIC results carry the new block
/// (``ImageEncodeOptions/exif``), Pillow reads those tags back and nothing else, and
/// ``EXIFBlock/find(in:)`` finds a block in each container.
final class EXIFCopyrightTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    func testOnlyTheCopyrightTagsAreKept() throws {
        XCTAssertEqual(EXIF.orientation(fromTIFF: EXIFSamples.copyrightSource), .right, "the block reads as EXIF")
        let kept = try XCTUnwrap(EXIF.copyright(fromTIFF: EXIFSamples.copyrightSource))
        XCTAssertEqual(EXIF.orientation(fromTIFF: kept), .up, "the orientation is not copyright")
        let text = String(decoding: kept, as: UTF8.self)
        for value in ["thumbor", "github.com/thumbor", "2022:10:24 18:37:35"] { XCTAssertTrue(text.contains(value), value) }
        XCTAssertFalse(text.contains("Acme"))
        XCTAssertNil(EXIF.copyright(fromTIFF: Array(EXIFSamples.copyrightSource.prefix(30))), "cut before its texts: nothing to keep")
        XCTAssertNil(EXIF.copyright(fromTIFF: [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0]), "a directory past the end")
        XCTAssertNil(EXIF.copyright(fromTIFF: Array("not exif at all".utf8)))
    }

    /// thumbor's `test_should_preserve_copyright_exif_in_image_with_broken_exif_tag`: an
    /// orientation of 0 does not stop the copyright tags being kept.
    func testABrokenOrientationDoesNotLoseTheCopyright() throws {
        let broken = EXIFSamples.copyrightSource(orientation: 0)
        XCTAssertEqual(EXIF.orientation(fromTIFF: broken), .up)
        XCTAssertEqual(EXIF.copyright(fromTIFF: broken), EXIF.copyright(fromTIFF: EXIFSamples.copyrightSource))
    }

    func testResultsCarryTheBlockAsPillowReadsIt() throws {
        let folder = try TemporaryFolder(self)
        let kept = try XCTUnwrap(EXIF.copyright(fromTIFF: EXIFSamples.copyrightSource))
        var options = ImageEncodeOptions()
        options.exif = kept
        let image = Image(pixels: PixelBuffer(width: 16, height: 8, fill: RGBA(r: 10, g: 120, b: 200)))
        for format in [ImageFormat.jpeg, .png, .webp, .avif] {
            let data = try coders.encode(image, as: format, options: options)
            XCTAssertEqual(EXIFBlock.find(in: data), kept, "\(format)")
            XCTAssertEqual(try coders.decode(data).pixelWidth, 16)
            let url = folder.appending("copyright.\(format.rawValue)")
            try data.write(to: url)
            let tags = try Pillow.run("""
                import sys
                from PIL import Image
                exif = Image.open(sys.argv[1]).getexif()
                print(sorted((k, v) for k, v in exif.items()))
                """, [url.path])
            XCTAssertEqual(tags.trimmingCharacters(in: .whitespacesAndNewlines),
                           "[(306, '2022:10:24 18:37:35'), (315, 'thumbor'), (33432, 'github.com/thumbor')]", "\(format)")
            XCTAssertNil(EXIFBlock.find(in: try coders.encode(image, as: format)), "\(format): none unless asked")
        }
    }

    func testTheBlockIsFoundInEachContainer() throws {
        var options = ImageEncodeOptions()
        options.exif = EXIFSamples.copyrightSource
        let image = Image(pixels: PixelBuffer(width: 4, height: 4, fill: .white))
        for format in [ImageFormat.jpeg, .png, .webp, .avif, .heic] {
            let data = try coders.encode(image, as: format, options: options)
            XCTAssertEqual(EXIFBlock.find(in: data), EXIFSamples.copyrightSource, "\(format)")
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 40)) {
                _ = EXIFBlock.find(in: data.prefix(cut))  // a file cut anywhere is read without a trap
            }
        }
        let tiff = try coders.encode(image, as: .tiff)
        XCTAssertEqual(EXIFBlock.find(in: tiff).map { Data($0) }, tiff, "a TIFF is its own block")
        // A WebP with an EXIF chunk after its VP8X: RIFF chunks, little-endian lengths, padded to even.
        let block = EXIFSamples.copyrightSource
        var webp = Data("RIFF".utf8) + Data([0, 0, 0, 0]) + Data("WEBP".utf8)
        webp += Data("VP8X".utf8) + Data([10, 0, 0, 0]) + Data(repeating: 0, count: 10)
        webp += Data("EXIF".utf8) + Data([UInt8(block.count & 0xFF), UInt8(block.count >> 8), 0, 0]) + Data(block)
        XCTAssertEqual(EXIFBlock.find(in: webp), block)
        XCTAssertNil(EXIFBlock.find(in: webp.prefix(webp.count - 3)), "a chunk cut short is no block")
        XCTAssertNil(EXIFBlock.find(in: Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45])), "a segment longer than the file")
    }
}
