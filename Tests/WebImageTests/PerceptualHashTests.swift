import XCTest
import WebImage

final class PerceptualHashTests: XCTestCase {
    /// Hamming distance between our hash and imagehash.phash's hex string.
    private func distance(_ hash: UInt64, _ reference: String) throws -> Int {
        let value = try XCTUnwrap(UInt64(reference, radix: 16), reference)
        return (hash ^ value).nonzeroBitCount
    }

    /// The same decoded pixels, at full size (32 × 32 to 1024 × 768) and as 100 px thumbnails,
    /// hash within 2 bits of imagehash 4.3's phash (measured: 0 on every one).
    func testMatchesImagehash() throws {
        var distances: [String: Int] = [:]
        for image in try References.images() where image.width * image.height < 4_000_000 {
            distances[image.name] = try distance(PerceptualHash.hash(try References.full(image)), image.phash)
            if let thumbPhash = image.thumbPhash {
                distances[image.name + " thumbnail"] = try distance(PerceptualHash.hash(try References.thumbnail(image)), thumbPhash)
            }
        }
        print("pHash Hamming distances to imagehash: \(distances.sorted { $0.key < $1.key })")
        XCTAssertGreaterThanOrEqual(distances.count, 15)
        for (name, distance) in distances { XCTAssertLessThanOrEqual(distance, 2, name) }
    }

    /// A 12 MP photo (4032 × 3024) hashes within 2 bits of imagehash too; the time is printed.
    func testTwelveMegapixelPhoto() throws {
        let image = try References.image("testjfif_full")
        let pixels = try References.full(image)
        let start = ContinuousClock.now
        let hash = PerceptualHash.hash(pixels)
        print("pHash of \(image.width) × \(image.height): \(ContinuousClock.now - start), \(PerceptualHash.hexString(hash)) vs \(image.phash)")
        XCTAssertLessThanOrEqual(try distance(hash, image.phash), 2)
    }

    func testHexStringIsSixteenLowercaseDigits() {
        XCTAssertEqual(PerceptualHash.hexString(0x0123_4567_89AB_CDEF), "0123456789abcdef")
        XCTAssertEqual(PerceptualHash.hexString(1), "0000000000000001")
        XCTAssertEqual(PerceptualHash.hexString(.max), "ffffffffffffffff")
    }

    /// No pixels hash to 0; a single pixel is enlarged like any other image, to the same flat
    /// 32 × 32 as a larger image of its colour (whose side is not 32 either); alpha is ignored.
    func testEmptySinglePixelAndTransparentImages() {
        XCTAssertEqual(PerceptualHash.hash(PixelBuffer(width: 0, height: 0)), 0)
        let colour = RGBA(r: 40, g: 120, b: 200)
        XCTAssertEqual(PerceptualHash.hash(PixelBuffer(width: 1, height: 1, fill: colour)),
                       PerceptualHash.hash(PixelBuffer(width: 7, height: 3, fill: colour)))
        XCTAssertEqual(PerceptualHash.hash(PixelBuffer(width: 5, height: 5, fill: RGBA(r: 40, g: 120, b: 200, a: 0))),
                       PerceptualHash.hash(PixelBuffer(width: 5, height: 5, fill: colour)))
    }
}
