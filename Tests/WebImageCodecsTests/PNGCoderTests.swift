import Foundation
import XCTest
import WebImage
import WebImageTestSupport
@testable import WebImageCodecs

final class PNGCoderTests: XCTestCase {
    private let coder = PNGCoder()

    func testEveryPNGFixtureMatchesTheManifest() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "every PNG of the manifest")
        let entries = try corpus.manifest(kind: "png")
        XCTAssertEqual(entries.count, 65)
        for entry in entries {
            XCTAssertTrue(entry.decodes)
            let image = try coder.decode(corpus.imageData(entry.file), options: ImageDecodeOptions())
            XCTAssertEqual(image.pixelWidth, entry.width, entry.file)
            XCTAssertEqual(image.pixelHeight, entry.height, entry.file)
            XCTAssertEqual(image.frames.count, entry.frames, entry.file)
            XCTAssertEqual(image.format, .png)
            guard image.frames.count > 1 else { continue }
            XCTAssertEqual(image.loopCount, entry.loop ?? 1, entry.file)
            for (duration, expected) in zip(image.durations, entry.durations_ms ?? []) {
                guard let expected else { continue }
                XCTAssertEqual(duration * 1000, expected < 11 ? 100 : expected, accuracy: 1, entry.file)
            }
        }
    }

    func testPngSuiteDecodesMatchPillow() throws {
        // Every colour type and bit depth, interlaced or not, with tRNS, 16-bit and palettes.
        let names = ["basn0g01", "basn0g02", "basn0g04", "basn0g16", "basn2c08", "basn2c16", "basn3p01",
                     "basn3p04", "basn4a08", "basn4a16", "basn6a16", "ibasn0g16", "ibasn3p08", "ibasn6a16",
                     "ftbbn0g04", "ftbwn0g16", "ftbbn2c16", "ftbyn3p08", "ftp1n3p08", "iftbbn3p08"]
        for name in names.map({ "pngsuite_\($0).png" }) + ["sd_IndexedPNG.png", "sd_RGBA16PNG.png"] {
            let image = try coder.decode(Fixtures.imageData("png/" + name), options: ImageDecodeOptions())
            assertSamePixels(image.pixels, try PNGFixtures.reference(name, "f0"), name)
        }
    }

    func testPixelValuesOfKnownFiles() throws {
        // 16-bit RGB with a tRNS of white: white is transparent, the rest opaque.
        let transparent = try coder.decode(Fixtures.imageData("png/pngsuite_ftbbn2c16.png"), options: ImageDecodeOptions()).pixels
        XCTAssertEqual(transparent[0, 0].a, 0)
        XCTAssertEqual(Set(stride(from: 3, to: transparent.bytes.count, by: 4).map { transparent.bytes[$0] }), [0, 255])
        // 1-bit grayscale: samples are 0 or 255, all opaque.
        let gray = try coder.decode(Fixtures.imageData("png/pngsuite_basn0g01.png"), options: ImageDecodeOptions()).pixels
        XCTAssertEqual(Set(gray.bytes), [0, 255])
        XCTAssertFalse(gray.hasTransparency)
    }

    func testEXIFOrientationIsApplied() throws {
        // sd_IndexedPNG.png (687 x 123) with an eXIf chunk saying "rotate 90° clockwise" (6).
        let bytes = [UInt8](try Fixtures.imageData("png/sd_IndexedPNG.png"))
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        var exif: [UInt8] = [0, 0, 0, UInt8(tiff.count)] + Array("eXIf".utf8) + tiff + [0, 0, 0, 0]
        exif = PNGFixtures.fixingCRC(exif, chunkAt: 0)
        let rotated = try coder.decode(Data(bytes[..<33] + exif + bytes[33...]), options: ImageDecodeOptions())
        XCTAssertEqual(rotated.orientation, .right)
        XCTAssertEqual(PixelSize(width: rotated.pixelWidth, height: rotated.pixelHeight), PixelSize(width: 123, height: 687))
        let upright = try coder.decode(Data(bytes), options: ImageDecodeOptions())
        XCTAssertEqual(rotated.pixels, upright.pixels.applying(.right))
    }

    func testTruncatedFilesGiveTypedErrors() throws {
        for name in ["sd_TestImage.png", "pngsuite_ibasn6a16.png", "pngsuite_basn3p04.png"] {
            let bytes = [UInt8](try Fixtures.imageData("png/" + name))
            // Everything up to the end of the last IDAT chunk's data is needed for the pixels.
            let lastIDAT = try bytes.withUnsafeBytes { try PNGChunkList($0) }.chunks.last { $0.type == .IDAT }!
            XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) {
                XCTAssertEqual($0 as? ImageCodingError, .empty)
            }
            for step in 1..<100 {
                let cut = lastIDAT.data.upperBound * step / 100
                XCTAssertThrowsError(try coder.decode(Data(bytes.prefix(cut)), options: ImageDecodeOptions()), "\(name) cut at \(cut)") {
                    XCTAssertEqual($0 as? ImageCodingError, .truncated(.png), "\(name) cut at \(cut)")
                }
            }
        }
    }

    func testGarbageGivesTypedErrors() throws {
        XCTAssertThrowsError(try coder.decode(Data(count: 4096), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .unsupportedFormat(.undefined))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let noise = (0..<Int.random(in: 1...5000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertThrowsError(try coder.decode(Data(noise), options: ImageDecodeOptions())) {
                XCTAssertNotNil($0 as? ImageCodingError)
            }
            // The signature followed by noise: a PNG that is damaged.
            XCTAssertThrowsError(try coder.decode(Data(PNGChunkList.signature + noise), options: ImageDecodeOptions())) {
                XCTAssertNotNil($0 as? ImageCodingError, "\($0)")
            }
            XCTAssertNil(coder.decodePartial(Data(PNGChunkList.signature + noise), options: ImageDecodeOptions()))
        }
    }

    func testHugeHeaderIsRefusedBeforeDecoding() throws {
        // A real file whose IHDR now claims 100000 x 100000 pixels, with a valid CRC.
        var bytes = [UInt8](try Fixtures.imageData("png/sd_TestImage.png"))
        bytes = PNGFixtures.patching(bytes, uint32: 100_000, at: 16)
        bytes = PNGFixtures.patching(bytes, uint32: 100_000, at: 20)
        bytes = PNGFixtures.fixingCRC(bytes, chunkAt: 8)
        let tooMany = ImageCodingError.tooManyPixels(width: 100_000, height: 100_000, limit: ImageDecodeOptions.defaultMaxPixels)
        XCTAssertThrowsError(try coder.decode(Data(bytes), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, tooMany)
        }
        XCTAssertThrowsError(try coder.makeFrameReader(for: Data(bytes), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, tooMany)
        }
        XCTAssertNil(coder.decodePartial(Data(bytes), options: ImageDecodeOptions()))
    }

    func testEncodeDecodeRoundTripIsExact() throws {
        for name in ["sd_TestImage.png", "pngsuite_basn6a16.png", "pngsuite_basn2c08.png", "sd_IndexedPNG.png"] {
            let image = try coder.decode(Fixtures.imageData("png/" + name), options: ImageDecodeOptions())
            let encoded = try coder.encode(image, as: .png, options: ImageEncodeOptions())
            // Colour type: RGB (2) for an opaque image, RGBA (6) otherwise.
            XCTAssertEqual(encoded[25], image.pixels.hasTransparency ? 6 : 2, name)
            let decoded = try coder.decode(encoded, options: ImageDecodeOptions())
            XCTAssertEqual(decoded.pixels, image.pixels, name)
        }
        XCTAssertFalse(coder.canEncode(.jpeg))
        XCTAssertThrowsError(try coder.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .gif, options: ImageEncodeOptions()))
    }

    func testPartialDecodeShowsTheRowsReceived() throws {
        let data = try Fixtures.benchData("testjfif_256.png")
        let full = try coder.decode(data, options: ImageDecodeOptions()).pixels
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count / 2), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        XCTAssertEqual(partial.pixelWidth, 256)
        XCTAssertEqual(partial.pixelHeight, 192)
        let rowBytes = full.bytesPerRow
        let rows = (0..<192).prefix { y in
            partial.pixels.bytes[y * rowBytes ..< (y + 1) * rowBytes] == full.bytes[y * rowBytes ..< (y + 1) * rowBytes]
        }.count
        XCTAssertGreaterThan(rows, 40, "about half the rows have arrived")
        XCTAssertLessThan(rows, 192)
        XCTAssertEqual(partial.pixels[0, 191], .clear, "rows not yet received are transparent")

        let complete = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()))
        XCTAssertFalse(complete.isIncomplete)
        XCTAssertEqual(complete.pixels, full)
        XCTAssertNil(coder.decodePartial(data.prefix(20), options: ImageDecodeOptions()), "no IHDR yet")
    }

    func testPartialDecodeOfAnInterlacedFileHasTheFullSize() throws {
        let data = try Fixtures.imageData("png/pngsuite_ibasn6a08.png")
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count * 3 / 4), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        XCTAssertEqual(PixelSize(width: partial.pixelWidth, height: partial.pixelHeight), PixelSize(32))
        // The first Adam7 pass has arrived: pixel (0, 0) is the decoded one.
        let full = try coder.decode(data, options: ImageDecodeOptions()).pixels
        XCTAssertEqual(partial.pixels[0, 0], full[0, 0])
    }

    func testThumbnailIsDecodedThenResized() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(64))
        let image = try coder.decode(Fixtures.benchData("testjfif_256.png"), options: options)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 64, height: 48))
    }
}
