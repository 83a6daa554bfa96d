@testable import WebImageCodecs
import WebImage
import XCTest

/// The sample-depth reduction every deep decoder (HEIF, AVIF, JPEG XL) shares.
final class RGBASamplesTests: XCTestCase {
    func testDeepSamplesAreRoundedNotTruncated() {
        // round(v × 255 / 1023): 2 → 0.499 → 0, 3 → 0.748 → 1 (truncation gives 0), 1021 → 254.5 → 255.
        XCTAssertEqual([0, 2, 3, 512, 1021, 1023].map { RGBASamples.eightBit($0, bitDepth: 10) }, [0, 0, 1, 128, 255, 255])
        XCTAssertEqual([0, 128, 129, 32767, 65535].map { RGBASamples.eightBit($0, bitDepth: 16) }, [0, 0, 1, 127, 255])
        XCTAssertEqual((0..<4096).map { RGBASamples.eightBit($0, bitDepth: 12) },
                       (0..<4096).map { UInt8((Double($0) * 255 / 4095).rounded()) })
    }

    func testRowsAreReadWithTheirStrideAndMissingAlphaIsOpaque() {
        // Two rows of two 10-bit RGB pixels, little-endian, each row padded to 16 bytes.
        let words: [[UInt16]] = [[1023, 0, 3, 512, 512, 512], [0, 1023, 0, 2, 2, 2]]
        var bytes: [UInt8] = []
        for row in words {
            for word in row { bytes += [UInt8(word & 0xFF), UInt8(word >> 8)] }
            bytes += [0, 0, 0, 0]
        }
        let pixels = bytes.withUnsafeBytes {
            RGBASamples.pixels($0.baseAddress!, stride: 16, width: 2, height: 2, channels: 3, bitDepth: 10)
        }
        XCTAssertEqual(pixels[0, 0], RGBA(r: 255, g: 0, b: 1, a: 255))
        XCTAssertEqual(pixels[1, 0], RGBA(r: 128, g: 128, b: 128, a: 255))
        XCTAssertEqual(pixels[0, 1], RGBA(r: 0, g: 255, b: 0, a: 255))
        XCTAssertEqual(pixels[1, 1], RGBA(r: 0, g: 0, b: 0, a: 255))
    }

    func testPremultipliedColourIsDividedBack() {
        let premultiplied = PixelBuffer(width: 2, height: 1, bytes: [50, 100, 0, 128, 9, 9, 9, 0])
        let pixels = RGBASamples.unpremultiplied(premultiplied)
        XCTAssertEqual(pixels[0, 0], RGBA(r: 100, g: 199, b: 0, a: 128))
        XCTAssertEqual(pixels[1, 0], RGBA(r: 9, g: 9, b: 9, a: 0), "a clear pixel keeps its colour")
    }
}
