import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// ``BMPCoder`` on hostile input: typed errors, sizes refused before allocation, no trap on
/// any prefix of a valid file.
final class BMPCoderTests: XCTestCase {
    private let coder = BMPCoder()

    private func bitmap(width: Int32, height: Int32, bits: UInt16 = 24, compression: UInt32 = 0, pixels: [UInt8]) -> Data {
        BMPFile.make(width: width, height: height, bits: bits, compression: compression, pixels: pixels)
    }

    func testTwoByTwoBottomUp() throws {
        // Bottom row first: blue, green; then the top row: red, white; rows padded to 8 bytes.
        let data = bitmap(width: 2, height: 2, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0])
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.pixels[0, 0], RGBA(r: 255, g: 0, b: 0))
        XCTAssertEqual(image.pixels[1, 0], RGBA(r: 255, g: 255, b: 255))
        XCTAssertEqual(image.pixels[0, 1], RGBA(r: 0, g: 0, b: 255))
        XCTAssertEqual(image.pixels[1, 1], RGBA(r: 0, g: 255, b: 0))
    }

    /// A header claiming 60000 × 60000 in a 54-byte file: refused by the pixel limit, and
    /// within the limit still refused as truncated before any row is read.
    func testHugeSizeIsRefusedBeforeAllocation() {
        let data = bitmap(width: 60_000, height: 60_000, pixels: [])
        XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions())) { error in
            guard case ImageCodingError.tooManyPixels = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try coder.decode(bitmap(width: 100, height: -100, pixels: [1, 2, 3]), options: ImageDecodeOptions())) { error in
            XCTAssertEqual(error as? ImageCodingError, .truncated(.bmp))
        }
        XCTAssertThrowsError(try coder.decode(bitmap(width: Int32.min, height: 1, pixels: []), options: ImageDecodeOptions())) { error in
            guard case ImageCodingError.corrupt(.bmp, _) = error else { return XCTFail("\(error)") }
        }
    }

    func testUnsupportedLayoutsAreTypedErrors() {
        for (bits, compression) in [(UInt16(24), UInt32(4)), (7, 0), (8, 2), (24, 3)] {
            XCTAssertThrowsError(try coder.decode(bitmap(width: 1, height: 1, bits: bits, compression: compression, pixels: [0, 0, 0, 0]),
                                                  options: ImageDecodeOptions())) { error in
                XCTAssertTrue(error is ImageCodingError, "\(bits) bits, compression \(compression): \(error)")
            }
        }
    }

    /// Every prefix of a valid bitmap fails with a typed error or decodes; none traps.
    func testEveryPrefixIsSafe() {
        let data = bitmap(width: 3, height: 2, pixels: [UInt8](repeating: 7, count: 24))
        for length in 0..<data.count {
            do {
                _ = try coder.decode(data.prefix(length), options: ImageDecodeOptions())
                XCTFail("a \(length)-byte prefix decoded")
            } catch {
                XCTAssertTrue(error is ImageCodingError, "\(length): \(error)")
            }
        }
    }

    /// A run-length file whose codes run past rows and columns is clipped, not written out of bounds.
    func testRunLengthPastTheEdgesIsClipped() throws {
        var palette = [UInt8]()
        for index in 0..<256 { palette += [UInt8(index), 0, 0, 0] }
        let codes: [UInt8] = [255, 1, 0, 2, 255, 255, 255, 2, 0, 0, 0, 0, 0, 0, 0, 200] + [UInt8](repeating: 9, count: 200)
        var data = bitmap(width: 2, height: 2, bits: 8, compression: 1, pixels: [])
        data.replaceSubrange(10..<14, with: [0x36, 0x04, 0, 0])
        data += palette + codes
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.pixels[0, 1], RGBA(r: 0, g: 0, b: 1))
        XCTAssertEqual(image.pixels[1, 1], RGBA(r: 0, g: 0, b: 1))
    }

    /// An RLE4 absolute run of an odd count takes its nibbles in whole bytes, padded to a word, as
    /// the format defines it (Pillow reads count / 2 bytes, dropping the last nibble and
    /// misreading what follows, so the conformance corpus holds even counts only).
    func testAnOddRLE4AbsoluteRunKeepsItsLastNibbleAndItsPadding() throws {
        var palette = [UInt8]()
        for index in 0..<16 { palette += [UInt8(index), 0, 0, 0] }
        let codes: [UInt8] = [0, 5, 0x12, 0x34, 0x50, 0, 3, 0x66, 0, 1]
        var data = bitmap(width: 8, height: 1, bits: 4, compression: 2, pixels: [])
        data.replaceSubrange(10..<14, with: [0x76, 0, 0, 0])
        data += palette + codes
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual((0..<8).map { Int(image.pixels[$0, 0].b) }, [1, 2, 3, 4, 5, 6, 6, 6])
    }

    /// Bitmaps written as ImageIO writes them for SDWebImage: 24 bits when opaque, 32 with an
    /// alpha mask otherwise; our decoder and Pillow read back the very pixels written.
    func testWrittenBitmapsReadBackExactlyHereAndInPillow() throws {
        let folder = try TemporaryFolder(self)
        var opaque = PixelBuffer(width: 13, height: 5), translucent = PixelBuffer(width: 6, height: 3)
        for y in 0..<5 { for x in 0..<13 { opaque[x, y] = RGBA(r: UInt8(x * 19), g: UInt8(y * 50), b: UInt8((x * y * 7) & 255)) } }
        for y in 0..<3 { for x in 0..<6 { translucent[x, y] = RGBA(r: UInt8(x * 40), g: 10, b: UInt8(y * 90), a: UInt8(x * 50)) } }
        for (name, pixels, bits) in [("opaque", opaque, 24), ("translucent", translucent, 32)] {
            let data = try coder.encode(Image(pixels: pixels), as: .bmp, options: ImageEncodeOptions())
            XCTAssertEqual(Int(data[28]), bits, name)
            XCTAssertEqual(try coder.decode(data, options: ImageDecodeOptions()).pixels, pixels, name)
            let url = folder.appending("\(name).bmp")
            try data.write(to: url)
            let read = try Pillow.run("""
                import sys
                from PIL import Image
                image = Image.open(sys.argv[1]).convert("RGBA")
                print(image.size[0], image.size[1], image.tobytes().hex())
                """, [url.path]).split(separator: " ")
            XCTAssertEqual(read.count, 3, name)
            XCTAssertEqual(Int(read[0]), pixels.width)
            XCTAssertEqual(String(read[2]).trimmingCharacters(in: .whitespacesAndNewlines),
                           pixels.bytes.map { String(format: "%02x", $0) }.joined(), "\(name): Pillow reads what was written")
        }
        XCTAssertThrowsError(try coder.encode(Image(pixels: opaque), as: .png, options: ImageEncodeOptions()))
        XCTAssertTrue(coder.canEncode(.bmp))
    }
}
