import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Decoding: the corpus against Pillow's facts, pixels against Pillow's references,
/// orientation, frame access, thumbnails and progressive decoding.
final class WebPCoderTests: XCTestCase {
    let coder = WebPCoder()

    func testEveryWebPFixtureMatchesTheManifest() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "every WebP of the manifest")
        let entries = try corpus.manifest(kind: "webp")
        XCTAssertGreaterThanOrEqual(entries.count, 37)
        for entry in entries {
            let data = try corpus.imageData(entry.file)
            XCTAssertTrue(coder.canDecode(data), entry.file)
            guard entry.decodes else {
                XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions()), entry.file) {
                    XCTAssertTrue($0 is ImageCodingError, entry.file)
                }
                continue
            }
            let image = try coder.decode(data, options: ImageDecodeOptions())
            XCTAssertEqual(image.format, .webp, entry.file)
            XCTAssertEqual(image.pixelWidth, entry.width, entry.file)
            XCTAssertEqual(image.pixelHeight, entry.height, entry.file)
            XCTAssertEqual(image.frames.count, entry.frames, entry.file)
            XCTAssertEqual(image.loopCount, entry.loop, entry.file)
            XCTAssertEqual(image.durations.map { ($0 * 1000).rounded() }, entry.durations_ms, entry.file)
            XCTAssertFalse(image.isIncomplete, entry.file)
        }
    }

    func testLosslessPixelsMatchPillowExactly() throws {
        let image = try coder.decode(Fixtures.imageData("webp/lwt_lossless1.webp"), options: ImageDecodeOptions())
        let pixels = image.pixels
        XCTAssertEqual(pixels[500, 150], RGBA(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(pixels[999, 306], RGBA(r: 255, g: 255, b: 255, a: 0))
        XCTAssertEqual(pixels[590, 103], RGBA(r: 0, g: 0, b: 0, a: 25))
        XCTAssertEqual(pixels[699, 98], RGBA(r: 100, g: 112, b: 70, a: 255))
        XCTAssertEqual(pixels[766, 124], RGBA(r: 154, g: 194, b: 47, a: 255))
    }

    func testLosslessImageWithoutAlphaIsOpaqueEvenWithBadPaletteIndexes() throws {
        // Indexes past the palette decode to transparent black; the header says "no alpha",
        // so Pillow and dwebp show those pixels opaque black.
        let image = try coder.decode(Fixtures.imageData("webp/lwt_bad_palette_index.webp"), options: ImageDecodeOptions())
        XCTAssertEqual(image.pixels[0, 0], RGBA(r: 206, g: 227, b: 252, a: 255))
        XCTAssertEqual(image.pixels[1, 0], RGBA(r: 0, g: 0, b: 0, a: 255))
        XCTAssertFalse(image.pixels.hasTransparency)
    }

    func testLossyAndAlphaPixelsMatchPillow() throws {
        let still = try coder.decode(Fixtures.imageData("webp/sd_TestImageStatic.webp"), options: ImageDecodeOptions())
        assertClose(still.pixels[0, 0], RGBA(r: 118, g: 181, b: 241, a: 255))
        assertClose(still.pixels[275, 184], RGBA(r: 19, g: 71, b: 113, a: 255))
        assertClose(still.pixels[100, 300], RGBA(r: 21, g: 36, b: 47, a: 255))

        let alpha = try coder.decode(Fixtures.imageData("webp/pil_transparent.webp"), options: ImageDecodeOptions())
        XCTAssertEqual(alpha.pixels[0, 0].a, 0)
        assertClose(alpha.pixels[100, 75], RGBA(r: 133, g: 60, b: 57, a: 241))
        assertClose(alpha.pixels[60, 40], RGBA(r: 9, g: 9, b: 121, a: 227))
    }

    func testAnimatedFramesAreCompositedAsPillowDoes() throws {
        let image = try coder.decode(Fixtures.imageData("webp/sd_TestImageAnimated.webp"), options: ImageDecodeOptions())
        XCTAssertEqual(image.frames.count, 8)
        XCTAssertEqual(image.loopCount, 0)
        let first = image.frames[0].pixels, last = image.frames[7].pixels
        XCTAssertEqual(first[0, 0], RGBA(r: 0, g: 0, b: 0, a: 0))
        XCTAssertEqual(first[495, 525], RGBA(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(last[495, 525], RGBA(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(last[300, 700].a, 0)

        let memory = try coder.decode(Fixtures.imageData("webp/sd_TestAnimatedImageMemory.webp"), options: ImageDecodeOptions())
        XCTAssertEqual(memory.frames.count, 16)
        assertClose(memory.frames[0].pixels[300, 300], RGBA(r: 194, g: 174, b: 97, a: 255))
        assertClose(memory.frames[15].pixels[0, 0], RGBA(r: 53, g: 3, b: 1, a: 255))
        assertClose(memory.frames[15].pixels[300, 300], RGBA(r: 239, g: 205, b: 176, a: 255))
    }

    func testFrameReaderReadsFramesInAnyOrder() throws {
        let data = try Fixtures.imageData("webp/sd_TestAnimatedImageMemory.webp")
        let inOrder = try coder.makeFrameReader(for: data, options: ImageDecodeOptions())
        let expected = try (0..<inOrder.frameCount).map { try inOrder.frame(at: $0) }
        let reader = try coder.makeFrameReader(for: data, options: ImageDecodeOptions())
        XCTAssertEqual(reader.canvasSize, PixelSize(600))
        XCTAssertEqual(reader.frameCount, 16)
        XCTAssertEqual(reader.loopCount, 0)
        XCTAssertEqual(reader.duration(at: 1), 0.334, accuracy: 1e-9)
        for index in [9, 3, 3, 15, 0, 10, 2] {
            XCTAssertEqual(try reader.frame(at: index), expected[index], "frame \(index)")
        }
        XCTAssertThrowsError(try reader.frame(at: 16)) { XCTAssertTrue($0 is ImageCodingError) }
        XCTAssertThrowsError(try reader.frame(at: -1)) { XCTAssertTrue($0 is ImageCodingError) }
    }

    func testFirstFrameOnly() throws {
        let data = try Fixtures.imageData("webp/sd_TestImageAnimated.webp")
        let still = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        XCTAssertEqual(still.frames.count, 1)
        XCTAssertEqual(still.loopCount, 1)
        XCTAssertEqual(still.pixels[495, 525], RGBA(r: 0, g: 0, b: 0, a: 255))
    }

    func testThumbnailIsDecodedSmallByLibwebpScaling() throws {
        let data = try Fixtures.benchData("testjfif_1024.webp")
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))
        XCTAssertEqual(try coder.decodedPixelSize(of: data, options: ImageDecodeOptions()),
                       PixelSize(width: 1024, height: 768))
        XCTAssertEqual(try coder.decodedPixelSize(of: data, options: options), PixelSize(width: 256, height: 192))
        // A pixel limit the full size breaks but the thumbnail keeps: the full size is never decoded.
        var limited = options
        limited.maxPixels = 256 * 192
        let thumbnail = try coder.decode(data, options: limited)
        XCTAssertEqual(PixelSize(width: thumbnail.pixelWidth, height: thumbnail.pixelHeight),
                       PixelSize(width: 256, height: 192))
        XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions(maxPixels: 256 * 192))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 1024, height: 768, limit: 256 * 192))
        }
        // The scaled decode looks like the 256 px rendition of the same photo.
        let reference = try coder.decode(Fixtures.benchData("testjfif_256.webp"), options: ImageDecodeOptions())
        XCTAssertEqual(thumbnail.pixels.bytes.count, reference.pixels.bytes.count)
        XCTAssertLessThan(PixelDifference(thumbnail.pixels, reference.pixels).mean, 6)
    }

    func testStretchedThumbnailWithoutAspectRatio() throws {
        let data = try Fixtures.imageData("webp/pil_hopper.webp")
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 40), preserveAspectRatio: false)
        let image = try coder.decode(data, options: options)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 100, height: 40))
    }

    func testDecodePartialShowsTheRowsReceived() throws {
        let data = try Fixtures.benchData("testjfif_256.webp")
        let full = try coder.decode(data, options: ImageDecodeOptions())
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count / 2), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        XCTAssertEqual(partial.format, .webp)
        XCTAssertEqual(PixelSize(width: partial.pixelWidth, height: partial.pixelHeight), PixelSize(width: 256, height: 192))
        let rows = (0..<192).filter { y in (0..<256).allSatisfy { partial.pixels[$0, y].a == 255 } }
        XCTAssertGreaterThan(rows.count, 16)
        XCTAssertLessThan(rows.count, 192)
        XCTAssertEqual(rows, Array(0..<rows.count), "decoded rows come first")
        for y in rows {
            for x in stride(from: 0, to: 256, by: 15) { XCTAssertEqual(partial.pixels[x, y], full.pixels[x, y]) }
        }
        XCTAssertEqual(partial.pixels[128, 191], .clear)

        let whole = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()))
        XCTAssertFalse(whole.isIncomplete)
        XCTAssertEqual(whole.pixels, full.pixels)
    }

    func testDecodePartialOfLosslessAndThumbnail() throws {
        let data = try Fixtures.imageData("webp/lwt_lossless1.webp")
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count * 3 / 4), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        XCTAssertEqual(PixelSize(width: partial.pixelWidth, height: partial.pixelHeight), PixelSize(width: 1000, height: 307))
        let photo = try Fixtures.benchData("testjfif_1024.webp")
        let thumbnail = try XCTUnwrap(coder.decodePartial(photo.prefix(photo.count / 3),
                                                          options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))))
        XCTAssertEqual(PixelSize(width: thumbnail.pixelWidth, height: thumbnail.pixelHeight), PixelSize(width: 256, height: 192))
        XCTAssertEqual(thumbnail.pixels[10, 5].a, 255)
        XCTAssertEqual(thumbnail.pixels[10, 190].a, 0)
    }

    func testDecodePartialIsNilWithoutAHeaderAndForAnimations() throws {
        let data = try Fixtures.benchData("testjfif_256.webp")
        XCTAssertNil(coder.decodePartial(data.prefix(0), options: ImageDecodeOptions()))
        XCTAssertNil(coder.decodePartial(data.prefix(12), options: ImageDecodeOptions()))
        let animated = try Fixtures.imageData("webp/sd_TestImageAnimated.webp")
        XCTAssertNil(coder.decodePartial(animated, options: ImageDecodeOptions()))
        XCTAssertNil(coder.decodePartial(animated.prefix(animated.count / 2), options: ImageDecodeOptions()))
    }

    func testExifOrientationIsAppliedAndKept() throws {
        let data = try Fixtures.imageData("webp/sd_TestImageStatic.webp")
        let stored = try coder.decode(data, options: ImageDecodeOptions())
        let rotated = try coder.decode(Self.addingOrientation(6, toSimpleWebP: data, width: 550, height: 368),
                                       options: ImageDecodeOptions())
        XCTAssertEqual(rotated.orientation, .right)
        XCTAssertEqual(PixelSize(width: rotated.pixelWidth, height: rotated.pixelHeight), PixelSize(width: 368, height: 550))
        XCTAssertEqual(rotated.pixels, stored.pixels.applying(.right))
        XCTAssertEqual(rotated.pixels[367, 0], stored.pixels[0, 0])

        let thumbnail = try coder.decode(Self.addingOrientation(6, toSimpleWebP: data, width: 550, height: 368),
                                         options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 92, height: 1000)))
        XCTAssertEqual(PixelSize(width: thumbnail.pixelWidth, height: thumbnail.pixelHeight), PixelSize(width: 92, height: 138))
    }

    // MARK: - Helpers

    /// `data` (a simple-format WebP: one VP8 or VP8L chunk) rewrapped as an extended WebP with
    /// an `EXIF` chunk holding orientation `value`: a real file as a camera app writes it.
    static func addingOrientation(_ value: UInt16, toSimpleWebP data: Data, width: Int, height: Int) -> Data {
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
            Array(tag.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        let vp8x = chunk("VP8X", [0x08, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
        let tiff: [UInt8] = Array("II*\0".utf8) + le(8, 4) + le(1, 2)
            + le(0x0112, 2) + le(3, 2) + le(1, 4) + le(Int(value), 2) + [0, 0] + le(0, 4)
        let body = vp8x + Array(data.dropFirst(12)) + chunk("EXIF", tiff)
        return Data(Array("RIFF".utf8) + le(body.count + 4, 4) + Array("WEBP".utf8) + body)
    }
}
