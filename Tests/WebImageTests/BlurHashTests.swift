import XCTest
import WebImage

final class BlurHashTests: XCTestCase {
    /// Our hashes of Pillow's thumbnails against blurhash-python's (woltapp's C encoder, in
    /// Float) of the same pixels, at several component counts: the same string, or one digit
    /// off where Float and Double round a component to neighbouring levels.
    func testMatchesReferenceEncoder() throws {
        var compared = 0, identical = 0
        for image in try References.thumbnailed() {
            let pixels = try References.thumbnail(image)
            for reference in image.blurhash ?? [] {
                let ours = try BlurHash.encode(pixels, xComponents: reference.x, yComponents: reference.y)
                XCTAssertEqual(ours.count, 4 + 2 * reference.x * reference.y, "\(image.name) \(reference.x)×\(reference.y)")
                let differing = zip(ours, reference.hash).filter { $0 != $1 }.count
                XCTAssertLessThanOrEqual(differing, 1, "\(image.name) \(reference.x)×\(reference.y): \(ours) vs \(reference.hash)")
                compared += 1
                if differing == 0 { identical += 1 }
            }
        }
        print("BlurHash: \(identical) of \(compared) hashes identical to blurhash-python's")
        XCTAssertGreaterThanOrEqual(compared, 20)
    }

    /// Our hashes, decoded by blurhash-python at the thumbnail's size, are the same pictures as
    /// the decodes of the reference encoder's hashes (mean absolute error under 0.5; measured
    /// 0), and pictures of the image: the 9 × 9 decode is closer to it than the flat 1 × 1 one
    /// on every image, and within 50 of 255 per channel pixel by pixel (measured 2.7 to 48.7: a
    /// blur of a detailed 100 px photo is far from it pixel by pixel), within 32 over 4 × 4
    /// blocks (measured 0.2 to 28.1, 35.8 on basn6a08, whose transparent pixels keep arbitrary RGB).
    func testDecodesCloseToImage() throws {
        for image in try References.thumbnailed() {
            let pixels = try References.thumbnail(image)
            let (width, height) = (pixels.width, pixels.height)
            var errors: [Int: [Double]] = [:]
            for reference in image.blurhash ?? [] where reference.x == reference.y {
                let ours = try BlurHash.encode(pixels, xComponents: reference.x, yComponents: reference.y)
                let decoded = try References.decodeBlurHash(ours, width: width, height: height)
                let theirs = try References.decodeBlurHash(reference.hash, width: width, height: height)
                for error in References.meanAbsoluteError(decoded, stride: 3, theirs, stride: 3, channels: 3) {
                    XCTAssertLessThan(error, 0.5, "\(image.name) \(reference.x)×\(reference.y)")
                }
                errors[reference.x] = References.meanAbsoluteError(decoded, stride: 3, pixels.bytes, stride: 4, channels: 3)
                if reference.x == 9 {
                    let blocks = References.meanAbsoluteError(
                        References.blockMeans(decoded, width: width, height: height, stride: 3, channels: 3, blocks: 4), stride: 3,
                        References.blockMeans(pixels.bytes, width: width, height: height, stride: 4, channels: 3, blocks: 4), stride: 3,
                        channels: 3)
                    print("BlurHash 9×9 \(image.name): decode vs image \(errors[9] ?? []), over 4 × 4 blocks \(blocks)")
                    for error in blocks { XCTAssertLessThan(error, image.name == "basn6a08" ? 40 : 32, image.name) }
                }
            }
            let detailed = try XCTUnwrap(errors[9], image.name), flat = try XCTUnwrap(errors[1], image.name)
            XCTAssertLessThan(detailed.reduce(0, +), flat.reduce(0, +), image.name)
            for error in detailed { XCTAssertLessThan(error, 50, image.name) }
        }
    }

    func testRejectsComponentCountsOutsideOneToNine() {
        let pixels = PixelBuffer(width: 4, height: 4, fill: .white)
        for (x, y) in [(0, 3), (10, 3), (4, 0), (4, 10), (-1, -1)] {
            XCTAssertThrowsError(try BlurHash.encode(pixels, xComponents: x, yComponents: y)) { error in
                XCTAssertEqual(error as? ImageAnalysisError, .componentsOutOfRange(x: x, y: y))
            }
        }
    }

    func testEmptyImageThrows() {
        XCTAssertThrowsError(try BlurHash.encode(PixelBuffer(width: 0, height: 0), xComponents: 4, yComponents: 3)) { error in
            XCTAssertEqual(error as? ImageAnalysisError, .emptyImage)
        }
    }

    /// A single pixel and a fully transparent image give well-formed hashes: for 1 × 1 red at
    /// 3 × 2, size digit "B" (2 + 1 · 9), DC "TI:j" (0xFF0000 in base 83) and 5 AC pairs; for
    /// transparent black at 1 × 1, size 0, maximum 0 and a black DC.
    func testSinglePixelAndTransparentImages() throws {
        let one = try BlurHash.encode(PixelBuffer(width: 1, height: 1, fill: RGBA(r: 255, g: 0, b: 0)), xComponents: 3, yComponents: 2)
        XCTAssertEqual(one.count, 16)
        XCTAssertTrue(one.hasPrefix("B"), one)
        XCTAssertEqual(one.dropFirst(2).prefix(4), "TI:j")
        let clear = try BlurHash.encode(PixelBuffer(width: 7, height: 5), xComponents: 1, yComponents: 1)
        XCTAssertEqual(clear, "000000")
    }
}
