import XCTest
import WebImage

final class ThumbHashTests: XCTestCase {
    /// Our bytes equal evanw's Rust encoder's (fast-thumbhash) and the Python port's (where it
    /// works: opaque images) on the photos, with and without alpha. Where a component is
    /// exactly 0 (basn6a08, a gradient with flat rows), ours rounds its 7.5 up and the Rust
    /// encoder's Float noise may round it down: allowed there, at most 2 nibbles one apart.
    func testMatchesReferenceEncoders() throws {
        var identical = 0, compared = 0
        for image in try References.thumbnailed() {
            let ours = try ThumbHash.encode(try References.thumbnail(image))
            let rust = try XCTUnwrap(image.thumbhashRust, image.name)
            if let python = image.thumbhashPython { XCTAssertEqual(ours, python, image.name) }
            XCTAssertEqual(ours.count, rust.count, image.name)
            let nibbles = { (bytes: [UInt8]) in bytes.flatMap { [Int($0 & 0x0F), Int($0 >> 4)] } }
            let differences = zip(nibbles(ours), nibbles(rust)).map { abs($0 - $1) }.filter { $0 != 0 }
            XCTAssertLessThanOrEqual(differences.max() ?? 0, 1, image.name)
            XCTAssertLessThanOrEqual(differences.count, 2, image.name)
            compared += 1
            if ours == rust { identical += 1 }
        }
        print("ThumbHash: \(identical) of \(compared) identical to the Rust encoder's")
        XCTAssertGreaterThanOrEqual(identical, compared - 1)
    }

    /// Decoded by the reference decoder (and resized back to the thumbnail's size), our hash of
    /// an image with alpha is a picture of it, alpha included: over 4 × 4 blocks, alpha within
    /// 40 of 255 (measured below) and the image's overall coverage within 10.
    func testDecodesCloseToImageWithAlpha() throws {
        let image = try References.image("transparent")
        let pixels = try References.thumbnail(image)
        let (width, height) = (pixels.width, pixels.height)
        let hash = try ThumbHash.encode(pixels)
        XCTAssertEqual(hash[2] & 0x80, 0x80, "the hash has alpha")
        let decoded = try References.decodeThumbHash(hash, width: width, height: height)
        XCTAssertEqual(decoded.count, pixels.bytes.count)
        let alpha = { (bytes: [UInt8]) in bytes.enumerated().filter { $0.offset % 4 == 3 }.map(\.element) }
        let blocks = References.meanAbsoluteError(
            References.blockMeans(alpha(decoded), width: width, height: height, stride: 1, channels: 1, blocks: 4), stride: 1,
            References.blockMeans(alpha(pixels.bytes), width: width, height: height, stride: 1, channels: 1, blocks: 4), stride: 1,
            channels: 1)[0]
        let coverage = References.meanAbsoluteError(
            References.blockMeans(alpha(decoded), width: width, height: height, stride: 1, channels: 1, blocks: 1), stride: 1,
            References.blockMeans(alpha(pixels.bytes), width: width, height: height, stride: 1, channels: 1, blocks: 1), stride: 1,
            channels: 1)[0]
        print("ThumbHash transparent: decoded alpha vs image over 4 × 4 blocks \(blocks), overall \(coverage)")
        XCTAssertLessThan(blocks, 40)
        XCTAssertLessThan(coverage, 10)
    }

    func testRejectsImagesOverOneHundredPixelsASide() {
        XCTAssertThrowsError(try ThumbHash.encode(PixelBuffer(width: 101, height: 50))) { error in
            XCTAssertEqual(error as? ImageAnalysisError, .imageTooLarge(width: 101, height: 50, limit: 100))
        }
        XCTAssertNoThrow(try ThumbHash.encode(PixelBuffer(width: 100, height: 100, fill: .white)))
    }

    func testEmptyImageThrows() {
        XCTAssertThrowsError(try ThumbHash.encode(PixelBuffer(width: 0, height: 3))) { error in
            XCTAssertEqual(error as? ImageAnalysisError, .emptyImage)
        }
    }

    /// One opaque white pixel: no alpha, luminance DC 1 (63), and 27 + 5 + 5 AC nibbles
    /// (7 × 7, 3 × 3 and 3 × 3 triangles less their DC) in 19 bytes after the 5 of the header.
    /// Fully transparent: the alpha bit, and an alpha byte whose DC is 0.
    func testSinglePixelAndTransparentImages() throws {
        let one = try ThumbHash.encode(PixelBuffer(width: 1, height: 1, fill: .white))
        XCTAssertEqual(one.count, 5 + 19)
        XCTAssertEqual(one[0] & 0x3F, 63)
        XCTAssertEqual(one[2] & 0x80, 0)
        let clear = try ThumbHash.encode(PixelBuffer(width: 20, height: 10))
        XCTAssertEqual(clear[2] & 0x80, 0x80)
        XCTAssertEqual(clear[5] & 0x0F, 0, "alpha DC of a transparent image")
    }
}
