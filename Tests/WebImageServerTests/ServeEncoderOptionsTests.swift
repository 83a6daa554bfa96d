import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `jpeg_options`, `png_options`, `webp_options`, `avif_options` and `dpi`, and
/// the advanced compression settings behind them, each observed in the result's bytes: the
/// JPEG's SOF marker and luma sampling, the PNG's interlace byte, palette and `pHYs`, the WebP's
/// lossless chunk, the AVIF's `av1C` chroma subsampling, the JFIF density.
final class ServeEncoderOptionsTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        try folder.folder("images", copying: ["photo.jpg": Fixtures.bench("testjfif_1024.jpg")])
    }

    /// The bytes of each of `options`' URLs (a 200-pixel fit of the photo), in order.
    private func results(_ options: [String], configure: (inout ImageServer.Configuration) -> Void = { _ in })
        async throws -> [[UInt8]] {
        let answers = try await routerAnswers(in: folder, options.map { "/insecure/rs:fit:200:200/\($0)/plain/local:///photo.jpg" },
                                              configure: configure)
        for (option, answer) in zip(options, answers) {
            XCTAssertEqual(answer.status, .ok, "\(option): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return answers.map { Array($0.body) }
    }

    /// The index just past the first occurrence of `marker` in `bytes`.
    private static func after(_ marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        return (0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }.map { $0 + marker.count }
    }

    /// A JPEG's frame marker (0xC0 baseline, 0xC2 progressive) and its first component's sampling byte.
    private static func frame(of jpeg: [UInt8]) -> (marker: UInt8, sampling: UInt8)? {
        var index = 2
        while index + 4 < jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1], length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if marker == 0xC0 || marker == 0xC2 { return (marker, jpeg[index + 11]) }
            index += 2 + length
        }
        return nil
    }

    func testJPEGOptionsAndTheirSetting() async throws {
        let out = try await results(["f:jpg", "jpgo:1/f:jpg", "jpgo::1/f:jpg", "jpgo:1:0:0:0:0:0/f:jpg", "dpi:300/f:jpg"])
        XCTAssertEqual(Self.frame(of: out[0])?.marker, 0xC0)
        XCTAssertEqual(Self.frame(of: out[0])?.sampling, 0x22, "4:2:0 by default")
        XCTAssertEqual(Self.frame(of: out[1])?.marker, 0xC2, "progressive")
        XCTAssertEqual(Self.frame(of: out[2])?.sampling, 0x11, "no_subsample: 4:4:4")
        XCTAssertEqual(Self.frame(of: out[3])?.marker, 0xC2, "mozjpeg's switches off are accepted")
        let jfif = try XCTUnwrap(Self.after(Array("JFIF\u{0}".utf8), in: out[4]))
        XCTAssertEqual(Array(out[4][(jfif + 2)..<(jfif + 7)]), [1, 0x01, 0x2C, 0x01, 0x2C], "300 dots per inch")
        let setting = try await results(["f:jpg"]) { $0.output.encoding.jpegNoSubsample = true }
        XCTAssertEqual(Self.frame(of: setting[0])?.sampling, 0x11, "IMGPROXY_JPEG_NO_SUBSAMPLE")
        XCTAssertTrue(try ImageServer.Configuration(environment: ["IMGPROXY_JPEG_NO_SUBSAMPLE": "true"]).output.encoding.jpegNoSubsample)
    }

    func testPNGOptionsAndDensity() async throws {
        let out = try await results(["f:png", "pngo:1/f:png", "pngo::1:16/f:png", "pngo:::16/f:png", "dpi:72/f:png"])
        XCTAssertEqual(out[0][28], 0, "not interlaced by default")
        XCTAssertEqual(out[1][28], 1, "Adam7")
        XCTAssertEqual(out[2][25], 3, "a palette PNG")
        let palette = try XCTUnwrap(Self.after(Array("PLTE".utf8), in: out[2]))
        let entries = (Int(out[2][palette - 8]) << 24 | Int(out[2][palette - 7]) << 16 | Int(out[2][palette - 6]) << 8 | Int(out[2][palette - 5])) / 3
        XCTAssertLessThanOrEqual(entries, 16)
        XCTAssertEqual(out[3][25], 2, "colours alone do not quantize")
        XCTAssertNil(Self.after(Array("pHYs".utf8), in: out[0]))
        let physical = try XCTUnwrap(Self.after(Array("pHYs".utf8), in: out[4]))
        XCTAssertEqual(Array(out[4][physical..<(physical + 9)]), [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1], "2835 pixels a metre")
    }

    func testWebPOptions() async throws {
        let out = try await results(["f:webp", "webpo:lossless/f:webp", "webpo:near_lossless/f:webp", "webpo:lossy:1/f:webp",
                                     "webpo:::text/f:webp"])
        XCTAssertNotNil(Self.after(Array("VP8 ".utf8), in: out[0]), "lossy by default")
        XCTAssertNotNil(Self.after(Array("VP8L".utf8), in: out[1]))
        XCTAssertNotNil(Self.after(Array("VP8L".utf8), in: out[2]))
        XCTAssertNotEqual(out[1], out[2], "near-lossless preprocessing changes the lossless coding")
        XCTAssertNotEqual(out[3], out[0], "sharp YUV changes the lossy coding")
        XCTAssertNotEqual(out[4], out[0], "the text preset tunes it otherwise")
        let setting = try await results(["f:webp"]) { $0.output.encoding.webpCompression = .lossless }
        XCTAssertNotNil(Self.after(Array("VP8L".utf8), in: setting[0]), "IMGPROXY_WEBP_COMPRESSION")
    }

    func testAVIFSubsample() async throws {
        let out = try await results(["q:50/f:avif", "q:50/avifo:off/f:avif", "q:95/f:avif", "q:95/avifo:on/f:avif"])
        func subsampled(_ avif: [UInt8]) throws -> Bool {
            let config = try XCTUnwrap(Self.after(Array("av1C".utf8), in: avif))
            return avif[config + 2] >> 2 & 0b11 == 0b11
        }
        XCTAssertTrue(try subsampled(out[0]), "4:2:0 below quality 90")
        XCTAssertFalse(try subsampled(out[1]), "off: 4:4:4")
        XCTAssertFalse(try subsampled(out[2]), "4:4:4 from quality 90")
        XCTAssertTrue(try subsampled(out[3]), "on: 4:2:0")
    }

    func testUnavailableAndMalformedArgumentsAreRefused() async throws {
        try await withRouterTestServer(in: folder) { client in
            for option in ["jpgo::0:1", "jpgo:::::3", "jpgo:::::9", "pngo::1:300", "webpo:lossy2", "webpo:::general", "avifo:sometimes", "dpi:-1"] {
                let answer = try await client.execute(uri: "/insecure/\(option)/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .badRequest, option)
            }
        }
    }
}
