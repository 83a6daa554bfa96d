import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// ``TIFFCoder`` against Pillow: TIFF files Pillow writes in every colour mode, compression and
/// byte order it offers (`References/make_tiff_corpus.py`), decoded by us and by Pillow and
/// compared; files we write read back by Pillow; and bytes that are no TIFF refused with an error.
final class TIFFCoderTests: XCTestCase {
    private let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("References/make_tiff_corpus.py")
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// The corpus, written into a folder of this test.
    private func corpus() throws -> TemporaryFolder {
        let folder = try TemporaryFolder(self)
        _ = try Pillow.run(try String(contentsOf: script, encoding: .utf8), [folder.url.path])
        return folder
    }

    func testEveryLayoutDecodesAsPillowDecodesIt() throws {
        let folder = try corpus()
        // CMYK: libtiff and Pillow invert the inks by different formulas; JPEG-free layouts are
        // otherwise exact.
        let tolerances = ["cmyk.tif": 60]
        let names = ["rgb_raw.tif", "rgb_lzw.tif", "rgb_deflate.tif", "rgb_packbits.tif", "rgba_lzw.tif", "grey.tif",
                     "bilevel_g4.tif", "palette.tif", "cmyk.tif", "oriented6.tif", "two_pages.tif"]
        for name in names {
            let url = folder.appending(name)
            let ours = try coders.decode(try Data(contentsOf: url))
            XCTAssertEqual(ours.format, .tiff, name)
            XCTAssertEqual(ours.frames.count, 1, "\(name): the first page only")
            let pillow = try Pillow.frame(0, of: url)
            XCTAssertEqual([ours.pixelWidth, ours.pixelHeight], [pillow.width, pillow.height], name)
            guard ours.pixelWidth == pillow.width, ours.pixelHeight == pillow.height else { continue }
            let difference = PixelDifference(ours.pixels, pillow)
            XCTAssertLessThanOrEqual(difference.maximum, tolerances[name] ?? 1, "\(name): \(difference)")
        }
        let turned = try coders.decode(try Data(contentsOf: folder.appending("oriented6.tif")))
        XCTAssertEqual(turned.orientation, .right, "the orientation tag, applied as Pillow applies it")
        XCTAssertEqual([turned.pixelWidth, turned.pixelHeight], [37, 61])
        let alpha = try coders.decode(try Data(contentsOf: folder.appending("rgba_lzw.tif")))
        XCTAssertEqual(alpha.pixels[0, 0].a, 0)
        XCTAssertEqual(alpha.pixels[30, 20], RGBA(r: 127, g: 141, b: 200, a: 225), "unassociated alpha, unpremultiplied")
    }

    /// 16-bit grey in both byte orders: libtiff keeps the high byte (Pillow's RGBA conversion
    /// clips instead, so the expectation is worked out from the samples written).
    func testSixteenBitGreyKeepsTheHighByteInEitherByteOrder() throws {
        let folder = try corpus()
        for name in ["grey16_little.tif", "grey16_big.tif"] {
            let image = try coders.decode(try Data(contentsOf: folder.appending(name)))
            for (x, y) in [(0, 0), (17, 3), (60, 36)] {
                let level = UInt8((x * 1000 + y * 10) >> 8)
                XCTAssertEqual(image.pixels[x, y], RGBA(r: level, g: level, b: level), "\(name) at (\(x), \(y))")
            }
        }
    }

    func testWhatWeWritePillowReadsExactly() throws {
        let folder = try TemporaryFolder(self)
        var pixels = PixelBuffer(width: 33, height: 21, fill: RGBA(r: 12, g: 200, b: 90))
        for x in 0..<33 { pixels[x, 7] = RGBA(r: UInt8(x * 7), g: 0, b: 255, a: UInt8(255 - x * 3)) }
        for (name, picture) in [("alpha.tif", pixels), ("opaque.tif", pixels.flattened(onto: .white))] {
            let data = try coders.encode(Image(pixels: picture), as: .tiff)
            XCTAssertEqual(ImageFormat(detecting: data), .tiff)
            let url = folder.appending(name)
            try data.write(to: url)
            assertSamePixels(try Pillow.frame(0, of: url), picture, name)
            assertSamePixels(try coders.decode(data).pixels, picture, "\(name) read back by us")
        }
    }

    func testBytesThatAreNoTIFFAreRefusedWithAnError() throws {
        let folder = try corpus()
        let whole = try Data(contentsOf: folder.appending("rgb_lzw.tif"))
        let damaged: [(String, Data)] = [
            ("header only", Data([0x49, 0x49, 0x2A, 0x00])),
            ("directory past the end", Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F])),
            ("cut in the strips", whole.prefix(whole.count / 2)),
            ("big-endian header, nothing else", Data([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8])),
        ]
        for (what, data) in damaged {
            XCTAssertThrowsError(try coders.decode(data), what) { error in
                XCTAssertTrue(error is ImageCodingError, "\(what): \(error)")
            }
        }
        var options = ImageDecodeOptions()
        options.maxPixels = 1000
        XCTAssertThrowsError(try coders.decode(whole, options: options), "61 × 37 is over 1000 pixels")
    }
}
