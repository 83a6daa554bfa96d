import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// HEIC written through libheif's x265 encoder and read back through libde265.
final class HEIFEncoderTests: XCTestCase {
    private let coder = HEIFCoder()

    /// Four quadrants of flat colour on an odd size (HEVC codes 4:2:0 in even blocks).
    private func quadrants(width: Int = 37, height: Int = 21, alpha: UInt8 = 255) -> Image {
        var pixels = PixelBuffer(width: width, height: height)
        let colours = [RGBA(r: 220, g: 30, b: 30, a: alpha), RGBA(r: 30, g: 200, b: 40, a: alpha),
                       RGBA(r: 30, g: 40, b: 220, a: alpha), RGBA(r: 240, g: 240, b: 240, a: alpha)]
        for y in 0..<height { for x in 0..<width { pixels[x, y] = colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)] } }
        return Image(pixels: pixels)
    }

    /// Debian's libheif 1.15 links libx265: this machine can write HEIC.
    func testTheHEVCEncoderIsAvailable() {
        XCTAssertTrue(coder.canEncode(.heic))
        XCTAssertFalse(coder.canEncode(.heif))
    }

    func testRoundTripKeepsSizeAndColours() throws {
        let data = try coder.encode(quadrants(), as: .heic, options: ImageEncodeOptions(quality: 0.9))
        XCTAssertEqual(ImageFormat(detecting: data), .heic)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual([decoded.pixelWidth, decoded.pixelHeight], [37, 21])
        XCTAssertFalse(decoded.pixels.hasTransparency)
        assertClose(decoded.pixels[4, 3], RGBA(r: 220, g: 30, b: 30), tolerance: 12, "top left")
        assertClose(decoded.pixels[32, 18], RGBA(r: 240, g: 240, b: 240), tolerance: 12, "bottom right")
    }

    func testAlphaIsKept() throws {
        let data = try coder.encode(quadrants(alpha: 128), as: .heic, options: ImageEncodeOptions(quality: 0.9))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertLessThanOrEqual(abs(Int(decoded.pixels[4, 3].a) - 128), 4)
    }

    func testLowerQualityIsSmaller() throws {
        var random = SeededRandom(seed: 7)
        let noise = Image(pixels: PixelBuffer(width: 64, height: 64, bytes: (0..<64 * 64).flatMap { _ in random.bytes(3) + [255] }))
        let low = try coder.encode(noise, as: .heic, options: ImageEncodeOptions(quality: 0.2))
        let high = try coder.encode(noise, as: .heic, options: ImageEncodeOptions(quality: 0.95))
        XCTAssertLessThan(low.count * 2, high.count)
    }

    /// Through the registry, so the encode options reach HEIC too.
    func testMaxPixelSizeThroughTheRegistry() throws {
        let data = try ImageCoders(WebImageCodecs.defaultCoders).encode(quadrants(width: 300, height: 200), as: .heic,
                                                                       options: ImageEncodeOptions(maxPixelSize: PixelSize(150)))
        XCTAssertEqual(try coder.readHeader(data).pixelSize, PixelSize(width: 150, height: 100))
    }
}
