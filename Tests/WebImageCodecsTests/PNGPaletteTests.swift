import Foundation
import WebImage
import WebImageCodecs
import WebImageQuantization
import WebImageTestSupport
import XCTest

/// Palette PNGs: a still image quantized by libimagequant through ``PaletteQuantizer``, written
/// as colour type 3 at the fewest bits a pixel its palette needs, read back by our decoder and
/// by Pillow.
final class PNGPaletteTests: XCTestCase {
    private let coder = PNGCoder(quantizer: ImageQuantQuantizer())

    /// The IHDR bit depth and colour type of `png`, and the lengths of its PLTE and tRNS chunks.
    private func layout(_ png: Data) -> (bitDepth: UInt8, colourType: UInt8, palette: Int?, transparency: Int?) {
        let bytes = [UInt8](png)
        var chunks: [String: Int] = [:]
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            chunks[String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)] = length
            offset += 12 + length
        }
        return (bytes[24], bytes[25], chunks["PLTE"], chunks["tRNS"])
    }

    private func encode(_ pixels: PixelBuffer, colors: Int, interlaced: Bool = false) throws -> Data {
        var options = ImageEncodeOptions()
        options.paletteColors = colors
        options.progressive = interlaced
        return try coder.encode(Image(frames: [ImageFrame(pixels: pixels)], format: .png), as: .png, options: options)
    }

    func testAPhotoBecomesAPaletteOfAtMostTheColoursAskedThatPillowReadsAsWeDo() throws {
        let photo = try ImageCoders(WebImageCodecs.defaultCoders).decode(try Fixtures.data(Fixtures.bench("testjfif_256.jpg"))).pixels
        let folder = try TemporaryFolder(self)
        var sizes: [Int] = []
        for colors in [256, 64, 16] {
            let png = try encode(photo, colors: colors)
            let (bitDepth, colourType, palette, transparency) = layout(png)
            XCTAssertEqual(colourType, 3, "\(colors): a palette PNG")
            XCTAssertEqual(bitDepth, colors > 16 ? 8 : 4)
            XCTAssertLessThanOrEqual(try XCTUnwrap(palette), colors * 3, "\(colors): PLTE holds at most the colours asked")
            XCTAssertNil(transparency, "an opaque photo has no tRNS")
            let ours = try coder.decode(png, options: ImageDecodeOptions()).pixels
            let file = folder.url.appendingPathComponent("photo\(colors).png")
            try png.write(to: file)
            assertSamePixels(ours, try Pillow.frame(0, of: file), "\(colors) colours: Pillow reads what we read")
            let difference = PixelDifference(ours, photo)
            XCTAssertLessThan(difference.mean, colors == 16 ? 12 : 6, "\(colors) colours, dithered, stay near the photo: \(difference)")
            sizes.append(png.count)
        }
        XCTAssertEqual(sizes, sizes.sorted(by: >), "fewer colours, a smaller file")
        let truecolour = try coder.encode(Image(frames: [ImageFrame(pixels: photo)], format: .png), as: .png, options: ImageEncodeOptions())
        XCTAssertLessThan(sizes[0], truecolour.count * 2 / 3, "a palette PNG is much smaller than a truecolour one")
    }

    func testFewColoursAreKeptExactlyWithTheirAlphaAtTheFewestBits() throws {
        let colours = [RGBA(r: 200, g: 30, b: 30), RGBA(r: 20, g: 180, b: 40, a: 128), RGBA(r: 0, g: 0, b: 0, a: 0)]
        var pixels = PixelBuffer(width: 33, height: 17)
        for y in 0..<17 {
            for x in 0..<33 { pixels[x, y] = colours[(x / 3 + y) % 3] }
        }
        for interlaced in [false, true] {
            let png = try encode(pixels, colors: 256, interlaced: interlaced)
            let (bitDepth, colourType, palette, transparency) = layout(png)
            XCTAssertEqual([bitDepth, colourType], [2, 3], "three colours fit two bits a pixel")
            XCTAssertEqual(palette, 9)
            XCTAssertNotNil(transparency)
            assertSamePixels(try coder.decode(png, options: ImageDecodeOptions()).pixels, pixels, "interlaced: \(interlaced)")
            let folder = try TemporaryFolder(self)
            let file = folder.url.appendingPathComponent("few.png")
            try png.write(to: file)
            assertSamePixels(try Pillow.frame(0, of: file), pixels, "Pillow, interlaced: \(interlaced)")
        }
    }

    func testAPaletteWithoutAQuantizerIsATypedErrorAndIndexedPixelsCheckTheirParts() {
        var options = ImageEncodeOptions()
        options.paletteColors = 16
        let image = Image(frames: [ImageFrame(pixels: PixelBuffer(width: 2, height: 2, fill: .white))], format: .png)
        XCTAssertThrowsError(try PNGCoder().encode(image, as: .png, options: options)) { error in
            guard case ImageCodingError.unsupportedFeature(.png, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertNil(IndexedPixels(width: 2, height: 1, palette: [.white], indices: [0]), "indices not width × height")
        XCTAssertNil(IndexedPixels(width: 1, height: 1, palette: [.white], indices: [1]), "an index past the palette")
        XCTAssertNil(IndexedPixels(width: 1, height: 1, palette: [], indices: [0]), "no colour")
        XCTAssertNil(IndexedPixels(width: Int.max, height: 2, palette: [.white], indices: [0]), "an area past Int")
        XCTAssertEqual(IndexedPixels(width: 1, height: 1, palette: [.white], indices: [0])?.pixels.bytes, [255, 255, 255, 255])
    }
}
