import CCodecShims
import Foundation
import XCTest
import WebImage
import WebImageTestSupport
@testable import WebImageCodecs

/// The PNG encoder's defaults, which match libpng's and Pillow's: a filter chosen per row by the
/// smallest sum of magnitudes, deflate at level 6, one IDAT chunk.
final class PNGEncoderTests: XCTestCase {
    private let coder = PNGCoder()

    /// The filter byte of every row of an encoded 8-bit file (`channels` bytes a pixel).
    private func filterTypes(of file: Data, width: Int, height: Int, channels: Int) throws -> [UInt8] {
        let bytes = [UInt8](file)
        let idat = try bytes.withUnsafeBytes { try PNGChunkList($0) }.chunks.filter { $0.type == .IDAT }
        XCTAssertEqual(idat.count, 1, "the image data is one IDAT chunk")
        let compressed = Array(bytes[try XCTUnwrap(idat.first).data])
        var inflated: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = compressed.withUnsafeBufferPointer { wi_zlib_inflate($0.baseAddress, $0.count, 1 << 24, &inflated, &length) }
        defer { free(inflated) }
        XCTAssertEqual(status, WI_ZLIB_OK)
        let stride = width * channels + 1
        XCTAssertEqual(length, stride * height)
        let rows = UnsafeBufferPointer(start: inflated, count: length)
        return (0..<height).map { rows[$0 * stride] }
    }

    func testEachRowGetsTheFilterWithTheSmallestSum() throws {
        // A horizontal ramp, the same on every row: Sub leaves 1s on the first row (None and
        // Up leave the ramp, Average and Paeth more than 1s), and Up leaves zeros on every
        // other row.
        let row: [UInt8] = (0..<64).flatMap { (x: Int) -> [UInt8] in [UInt8(x * 3), UInt8(x * 3 + 1), UInt8(x * 3 + 2), 255] }
        let pixels = PixelBuffer(width: 64, height: 8, bytes: Array((0..<8).map { _ in row }.joined()))
        let encoded = try coder.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
        XCTAssertEqual(encoded[25], 2, "an opaque image is written as RGB")
        XCTAssertEqual(try filterTypes(of: encoded, width: 64, height: 8, channels: 3), [1] + Array(repeating: 2, count: 7))
        XCTAssertEqual(try coder.decode(encoded, options: ImageDecodeOptions()).pixels, pixels)
    }

    func testAPhotoRoundTripsAndIsNoLargerThanPillowsDefaultEncoding() throws {
        let source = Fixtures.bench("testjfif_256.png")
        let image = try coder.decode(Fixtures.data(source), options: ImageDecodeOptions())
        let encoded = try coder.encode(image, as: .png, options: ImageEncodeOptions())
        XCTAssertEqual(try coder.decode(encoded, options: ImageDecodeOptions()).pixels, image.pixels)
        let filters = Set(try filterTypes(of: encoded, width: image.pixelWidth, height: image.pixelHeight, channels: 3))
        XCTAssertGreaterThan(filters.count, 1, "a photo's rows take different filters")
        let written = FileManager.default.temporaryDirectory.appendingPathComponent("png-encoder-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: written) }
        try encoded.write(to: written)
        XCTAssertEqual(try Pillow.frame(0, of: written), image.pixels, "Pillow reads the same pixels")
        // Pillow's own encoding of the same pixels with its defaults (level 6, adaptive filters).
        let pillowSize = try Pillow.run("""
            import io, sys
            from PIL import Image
            out = io.BytesIO()
            Image.open(sys.argv[1]).convert("RGB").save(out, "PNG")
            print(len(out.getvalue()))
            """, [source.path]).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertLessThanOrEqual(Double(encoded.count), Double(try XCTUnwrap(Int(pillowSize))) * 1.01)
    }

    func testTransparencyIsKeptAsRGBA() throws {
        let bytes: [UInt8] = (0..<3).flatMap { (y: Int) -> [UInt8] in (0..<5).flatMap { (x: Int) -> [UInt8] in [UInt8(x * 50), UInt8(y * 100), 7, UInt8(x * 60 + y)] } }
        let pixels = PixelBuffer(width: 5, height: 3, bytes: bytes)
        let encoded = try coder.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
        XCTAssertEqual(encoded[25], 6, "a translucent image is written as RGBA")
        XCTAssertEqual(try coder.decode(encoded, options: ImageDecodeOptions()).pixels, pixels)
    }
}
