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

    func testProgressiveWritesAdam7ThatPillowAndTheDecoderReadAsTheSamePixels() throws {
        let source = Fixtures.bench("testjfif_256.png")
        let photo = try coder.decode(Fixtures.data(source), options: ImageDecodeOptions())
        // Sizes where some of Adam7's passes are empty, a translucent one, and the photo.
        var seed: UInt64 = 7
        let shapes = [(1, 1), (3, 2), (9, 5), (17, 33)].map { width, height in
            PixelBuffer(width: width, height: height, bytes: (0..<width * height * 4).map { _ in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: seed >> 33)
            })
        } + [photo.pixels]
        var options = ImageEncodeOptions()
        options.progressive = true
        for pixels in shapes {
            let interlaced = try coder.encode(Image(pixels: pixels), as: .png, options: options)
            XCTAssertEqual(interlaced[28], 1, "IHDR's interlace method is Adam7 for \(pixels.width)x\(pixels.height)")
            XCTAssertEqual(try coder.decode(interlaced, options: ImageDecodeOptions()).pixels, pixels)
            let written = FileManager.default.temporaryDirectory.appendingPathComponent("png-adam7-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: written) }
            try interlaced.write(to: written)
            XCTAssertEqual(try Pillow.frame(0, of: written), pixels, "Pillow reads the same pixels")
        }
        let plain = try coder.encode(photo, as: .png, options: ImageEncodeOptions())
        XCTAssertEqual(plain[28], 0, "not interlaced by default")
    }

    /// On seeded noise of many widths, RGB and RGBA (the SIMD filter and sums run 16 bytes at a
    /// time, the rest byte by byte): every row takes the filter the specification's arithmetic
    /// says has the smallest sum, and the file decodes to the same pixels.
    func testTheFilterChoiceMatchesTheSpecificationsArithmetic() throws {
        var random = SeededRandom(seed: 0xC2B2_AE35)
        for channels in [3, 4] {
            for width in [1, 2, 5, 6, 7, 16, 17, 33, 100] {
                let height = 6
                // Smooth ramps with noise, so that different rows take different filters.
                var bytes: [UInt8] = []
                for y in 0..<height {
                    for x in 0..<width {
                        for channel in 0..<3 {
                            bytes.append(UInt8(truncatingIfNeeded: x * 7 + y * 5 + channel * 40 + Int.random(in: 0...24, using: &random)))
                        }
                        bytes.append(channels == 4 ? UInt8.random(in: 0...255, using: &random) : 255)
                    }
                }
                let pixels = PixelBuffer(width: width, height: height, bytes: bytes)
                let encoded = try coder.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
                XCTAssertEqual(try coder.decode(encoded, options: ImageDecodeOptions()).pixels, pixels, "\(width) px, \(channels) channels")
                let packed = (0..<height).map { (y: Int) -> [UInt8] in
                    (0..<width).flatMap { (x: Int) -> ArraySlice<UInt8> in
                        let start = (y * width + x) * 4
                        return bytes[start ..< start + channels]
                    }
                }
                let expected = (0..<height).map { y in
                    Self.smallestSumFilter(packed[y], above: y == 0 ? [UInt8](repeating: 0, count: width * channels) : packed[y - 1], bpp: channels)
                }
                XCTAssertEqual(try filterTypes(of: encoded, width: width, height: height, channels: channels), expected,
                               "\(width) px, \(channels) channels")
            }
        }
    }

    /// The filter type (0–4) whose filtered row has the smallest sum of magnitudes, the first on a tie.
    private static func smallestSumFilter(_ row: [UInt8], above: [UInt8], bpp: Int) -> UInt8 {
        func predictor(_ type: Int, _ a: Int, _ b: Int, _ c: Int) -> Int {
            switch type {
            case 1: return a
            case 2: return b
            case 3: return (a + b) / 2
            case 4:
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: return 0
            }
        }
        let sums = (0...4).map { (type: Int) -> Int in
            var sum = 0
            for i in row.indices {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(above[i]), c = i >= bpp ? Int(above[i - bpp]) : 0
                let filtered = (Int(row[i]) - predictor(type, a, b, c)) & 0xFF
                sum += min(filtered, 256 - filtered)
            }
            return sum
        }
        return UInt8(sums.firstIndex(of: sums.min()!)!)
    }

    func testTransparencyIsKeptAsRGBA() throws {
        let bytes: [UInt8] = (0..<3).flatMap { (y: Int) -> [UInt8] in (0..<5).flatMap { (x: Int) -> [UInt8] in [UInt8(x * 50), UInt8(y * 100), 7, UInt8(x * 60 + y)] } }
        let pixels = PixelBuffer(width: 5, height: 3, bytes: bytes)
        let encoded = try coder.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
        XCTAssertEqual(encoded[25], 6, "a translucent image is written as RGBA")
        XCTAssertEqual(try coder.decode(encoded, options: ImageDecodeOptions()).pixels, pixels)
    }
}
