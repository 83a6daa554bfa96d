import CCodecShims
import Foundation
import WebImage
import WebImageTestSupport
import XCTest
@testable import WebImageCodecs

/// WebImage's own reader of common PNGs (SIMD unfiltering; libdeflate inflating the whole
/// stream at once, or zlib a batch of rows at a time) against libpng's, and thumbnails decoded a band of rows at a time into the resampler
/// against a full decode resized.
final class PNGRowReaderTests: XCTestCase {
    /// Every PNG of the subset, and the bench's photos.
    private func fixtures() throws -> [(name: String, data: Data)] {
        let folder = Fixtures.image("png")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        return try names.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
            + ["testjfif_256.png", "testimagelarge_256.png"].map { ($0, try Fixtures.benchData($0)) }
    }

    /// The rows of `data` read with `mode` in bands of `band` rows, and whether WebImage's
    /// reader read them; nil for an interlaced file.
    private func rows(_ data: Data, mode: wi_png_rows_mode, band: Int = 7) throws -> (bytes: [UInt8], fast: Bool)? {
        let size = try Self.statedSize(data)
        return try data.withUnsafeBytes { file -> ([UInt8], Bool)? in
            var reader: OpaquePointer?
            var error = wi_png_error()
            let opened = wi_png_rows_open(file.baseAddress, file.count, UInt32(size.width), UInt32(size.height), mode, &reader, &error)
            if opened == WI_PNG_INTERLACED { return nil }
            guard opened == WI_PNG_OK else { throw Failure(status: opened) }
            defer { wi_png_rows_close(reader) }
            var bytes = [UInt8](repeating: 0, count: size.area * 4)
            var y = 0
            while y < size.height {
                let count = min(band, size.height - y)
                let status = bytes.withUnsafeMutableBufferPointer {
                    wi_png_rows_read(reader, $0.baseAddress! + y * size.width * 4, UInt32(count), &error)
                }
                guard status == WI_PNG_OK else { throw Failure(status: status) }
                y += count
            }
            return (bytes, wi_png_rows_is_fast(reader) != 0)
        }
    }

    /// The size the `IHDR` of `data` states.
    private static func statedSize(_ data: Data) throws -> PixelSize {
        guard data.count >= 24 else { throw Failure(status: WI_PNG_TRUNCATED) }
        let bytes = [UInt8](data.prefix(24))
        func word(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        return PixelSize(width: word(16), height: word(20))
    }

    private struct Failure: Error, Equatable {
        let status: wi_png_status
    }

    func testOwnReaderReadsEveryEligibleFixtureAsLibPNGDoes() throws {
        var fast: [String] = []
        for (name, data) in try fixtures() {
            guard let ours = try rows(data, mode: WI_PNG_ROWS_ANY) else { continue }
            let libpng = try XCTUnwrap(try rows(data, mode: WI_PNG_ROWS_LIBPNG), name)
            XCTAssertFalse(libpng.fast, name)
            XCTAssertEqual(ours.bytes, libpng.bytes, "\(name): rows differ from libpng's")
            let streamed = try XCTUnwrap(try rows(data, mode: WI_PNG_ROWS_STREAMED), name)
            XCTAssertEqual(streamed.fast, ours.fast, name)
            XCTAssertEqual(streamed.bytes, libpng.bytes, "\(name): rows inflated batch by batch differ from libpng's")
            if ours.fast { fast.append(name) }
        }
        // 8-bit grey + alpha, RGB and RGBA without tRNS, every filter type among them.
        for name in ["pngsuite_basn2c08.png", "pngsuite_basn4a08.png", "pngsuite_basn6a08.png", "sd_TestImage.png",
                     "apng_delay.png", "testjfif_256.png", "testimagelarge_256.png"] {
            XCTAssertTrue(fast.contains(name), "\(name) should be read by WebImage's reader")
        }
        // Palettes, other depths and tRNS stay with libpng.
        for name in ["pngsuite_basn3p04.png", "pngsuite_basn2c16.png", "pngsuite_basn0g04.png", "pngsuite_ftbyn3p08.png"] {
            XCTAssertFalse(fast.contains(name), "\(name) is libpng's")
        }
    }

    func testSIMDFiltersMatchTheSpecification() {
        var random = SeededRandom(seed: 0x9E37_79B9)
        for bpp in 1...8 {
            for pixels in [1, 2, 3, 5, 16, 33] {
                let length = bpp * pixels
                let prior = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                let filtered = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                for type in UInt8(0)...4 {
                    let expected = Self.unfiltered(type, filtered, prior: prior, bpp: bpp)
                    var row = filtered
                    XCTAssertEqual(wi_png_unfilter_row(type, &row, prior, length, UInt32(bpp)), 1)
                    XCTAssertEqual(row, expected, "filter \(type), \(bpp) bytes a pixel, \(pixels) pixels")
                    var baseline = filtered
                    XCTAssertEqual(wi_png_unfilter_row_baseline(type, &baseline, prior, length, UInt32(bpp)), 1)
                    XCTAssertEqual(baseline, expected, "SSE2 only: filter \(type), \(bpp) bytes a pixel, \(pixels) pixels")
                }
            }
        }
        var row: [UInt8] = [1, 2, 3]
        XCTAssertEqual(wi_png_unfilter_row(5, &row, [0, 0, 0], 3, 3), 0, "filter type 5 does not exist")
    }

    /// Two Paeth rows unfiltered together give what the specification gives row after row,
    /// for RGB and RGBA; other pixel sizes are declined, their bytes untouched.
    func testPairedPaethMatchesTheSpecification() {
        var random = SeededRandom(seed: 0x85EB_CA6B)
        for bpp in [3, 4] {
            for pixels in [1, 2, 3, 5, 16, 33] {
                let length = bpp * pixels
                let bytes = { (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) } }
                let prior = bytes(), first = bytes(), second = bytes()
                let expectedFirst = Self.unfiltered(4, first, prior: prior, bpp: bpp)
                let expectedSecond = Self.unfiltered(4, second, prior: expectedFirst, bpp: bpp)
                var row = first, next = second
                XCTAssertEqual(wi_png_unfilter_paeth_pair(&row, &next, prior, length, UInt32(bpp)), 1)
                XCTAssertEqual(row, expectedFirst, "first row, \(bpp) bytes a pixel, \(pixels) pixels")
                XCTAssertEqual(next, expectedSecond, "second row, \(bpp) bytes a pixel, \(pixels) pixels")
            }
        }
        var row: [UInt8] = [1, 2], next: [UInt8] = [3, 4]
        XCTAssertEqual(wi_png_unfilter_paeth_pair(&row, &next, [0, 0], 2, 2), 0, "grey with alpha is unfiltered row by row")
        XCTAssertEqual(row + next, [1, 2, 3, 4])
    }

    /// The filters of the PNG specification (§9.2), byte by byte.
    private static func unfiltered(_ type: UInt8, _ filtered: [UInt8], prior: [UInt8], bpp: Int) -> [UInt8] {
        var row = filtered
        for i in row.indices {
            let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(prior[i]), c = i >= bpp ? Int(prior[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predictor = 0
            }
            row[i] = UInt8((Int(row[i]) + predictor) & 0xFF)
        }
        return row
    }

    /// Damaged files get libpng's verdict, whichever reader met the damage first.
    func testDamagedFilesGetLibPNGsAnswer() throws {
        let original = [UInt8](try Fixtures.benchData("testjfif_256.png"))
        let idat = try XCTUnwrap(Self.firstChunk("IDAT", in: original))
        let dataStart = idat + 8
        var damaged: [(String, [UInt8])] = []
        // A flipped bit in the compressed data with the CRC fixed: zlib's error (or an Adler-32 mismatch).
        var flipped = original
        flipped[dataStart + 40] ^= 0x10
        damaged.append(("zlib damage", PNGFixtures.fixingCRC(flipped, chunkAt: idat)))
        // The same bit flipped, CRC left wrong.
        damaged.append(("IDAT CRC", flipped))
        // The file cut in the middle of its image data.
        damaged.append(("truncated", Array(original[..<(dataStart + 200)])))
        // The Adler-32 checksum at the end of the zlib stream broken.
        let lastIDAT = try XCTUnwrap(Self.lastChunk("IDAT", in: original))
        let lastLength = Int(original[lastIDAT]) << 24 | Int(original[lastIDAT + 1]) << 16 | Int(original[lastIDAT + 2]) << 8 | Int(original[lastIDAT + 3])
        var adler = original
        adler[lastIDAT + 8 + lastLength - 1] ^= 0xFF
        damaged.append(("Adler-32", PNGFixtures.fixingCRC(adler, chunkAt: lastIDAT)))
        for (what, bytes) in damaged {
            let data = Data(bytes)
            let libpng: Result<[UInt8], Failure> = Result { try rows(data, mode: WI_PNG_ROWS_LIBPNG, band: 256)?.bytes ?? [] }
                .mapError { $0 as? Failure ?? Failure(status: WI_PNG_NO_MEMORY) }
            let decoded = Result { try PNGCoder().decode(data, options: ImageDecodeOptions()) }
            switch (libpng, decoded) {
            case (.success(let bytes), .success(let image)):
                XCTAssertEqual(image.pixels.bytes, bytes, "\(what): the image libpng makes")
            case (.failure(let failure), .failure(let error)):
                XCTAssertTrue(error is ImageCodingError, "\(what): \(error) is not an ImageCodingError")
                if failure.status == WI_PNG_TRUNCATED {
                    XCTAssertEqual(error as? ImageCodingError, .truncated(.png), what)
                }
            default:
                XCTFail("\(what): libpng gives \(libpng), the coder \(decoded)")
            }
        }
    }

    private static func firstChunk(_ type: String, in bytes: [UInt8]) -> Int? {
        chunks(in: bytes).first { $0.type == type }?.offset
    }

    private static func lastChunk(_ type: String, in bytes: [UInt8]) -> Int? {
        chunks(in: bytes).last { $0.type == type }?.offset
    }

    private static func chunks(in bytes: [UInt8]) -> [(offset: Int, type: String)] {
        var offset = 8, found: [(Int, String)] = []
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            found.append((offset, String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self)))
            offset += 12 + length
        }
        return found
    }

    func testThumbnailsStreamedThroughTheResamplerEqualTheResizedFullDecode() throws {
        let cases = ["testjfif_256.png", "testimagelarge_256.png"].map { ($0, try? Fixtures.benchData($0)) }
            + ["pngsuite_basn2c16.png", "pngsuite_basn6a08.png", "pngsuite_basn3p04.png", "pngsuite_ibasn6a08.png"].map { ($0, try? Fixtures.imageData("png/\($0)")) }
        for (name, data) in cases {
            let data = try XCTUnwrap(data, name)
            // In stored colours: testjfif_256.png's profile converts a thumbnail after the resample.
            let full = try PNGCoder().decode(data, options: ImageDecodeOptions(colorManagement: .preserve)).pixels
            for side in [1, 7, full.width / 2, full.width - 1] {
                let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(side), colorManagement: .preserve)
                let thumbnail = try PNGCoder().decode(data, options: options)
                let target = options.targetSize(for: PixelSize(width: full.width, height: full.height))
                XCTAssertEqual(thumbnail.pixels, Resampler.resize(full, to: target), "\(name) at \(side)")
            }
        }
    }

    func testResamplingStreamInUnevenBandsEqualsTheWholeResize() throws {
        let pixels = try PNGCoder().decode(Fixtures.benchData("testimagelarge_256.png"), options: ImageDecodeOptions()).pixels
        for size in [PixelSize(width: 100, height: 60), PixelSize(width: 256, height: 1), PixelSize(width: 3, height: 168), PixelSize(width: 400, height: 300)] {
            let stream = ResamplingStream(from: PixelSize(width: pixels.width, height: pixels.height), to: size)
            pixels.bytes.withUnsafeBytes { bytes in
                var y = 0, band = 1
                while y < pixels.height {
                    let count = min(band, pixels.height - y)
                    stream.append(rows: bytes.baseAddress! + y * pixels.bytesPerRow, count: count)
                    y += count
                    band = band % 5 + 1
                }
            }
            XCTAssertEqual(stream.remainingRows, 0)
            XCTAssertEqual(stream.finish(), Resampler.resize(pixels, to: size), "\(size)")
        }
    }
}
