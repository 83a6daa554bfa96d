import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's integration_tests/urls_helpers.py `single_dataset`: every option alone
/// (`/unsafe/{option}/{image}`) must answer 200, on the nine kinds of image thumbor's
/// integration test reads (a JPEG, a CMYK JPEG, a grey JPEG, a transparent PNG, a 16-bit PNG, a
/// PNG with an EXIF orientation, a WebP, a still GIF and an animated GIF), through a real
/// `webimage serve` on loopback.
final class ServeThumborIntegrationTests: ServeTestCase {
    /// urls_helpers.py's ALL_OPTIONS, but for its three watermarks (see ``watermarks(of:)``).
    static let options: [String] = [
        "meta", "trim", "trim:top-left", "trim:bottom-right", "trim:top-left:10", "trim:bottom-right:20", "10x10:100x100",
        "fit-in", "adaptive-fit-in", "full-fit-in", "adaptive-full-fit-in",
        "200x200", "-300x100", "100x-300", "-100x-300", "origx300", "200xorig", "origxorig",
        "left", "right", "center", "top", "bottom", "middle", "smart",
        "filters:brightness(10)", "filters:contrast(10)", "filters:equalize()", "filters:grayscale()", "filters:rotate(90)",
        "filters:noise(10)", "filters:quality(5)", "filters:redeye()", "filters:rgb(10,-10,20)",
        "filters:round_corner(20,255,255,100)", "filters:sharpen(6,2.5,false)", "filters:sharpen(6,2.5,true)",
        "filters:strip_exif()", "filters:strip_icc()", "filters:fill(ff0000)", "filters:fill(auto)", "filters:fill(ff0000,true)",
        "filters:fill(transparent)", "filters:fill(transparent,true)", "filters:blur(2)", "filters:extract_focal()",
        "filters:focal()", "filters:focal(0x0:1x1)", "filters:no_upscale()", "filters:max_age(600)", "filters:upscale()",
        "filters:format(avif)", "filters:format(heic)", "filters:format(heif)",
        "filters:curve([(0,0),(255,255)],[(0,50),(16,51)],[(0,0),(16,2)],[(0,48),(16,50)])",
    ]

    /// urls_helpers.py's three watermarks, their mark (thumbor's file loader's
    /// `rgba-interlaced.png`) at `mark`, a URL on the test's origin: thumbor's loader reads a
    /// bare name from its folder, this server from a URL.
    static func watermarks(of mark: String) -> [String] {
        ["10,10,50", "center,center,50", "repeat,repeat,50"].map { "filters:watermark(\(mark),\($0))" }
    }

    /// urls_helpers.py's `gifv` options: thumbor's gifv optimizer writes a GIF result as a video,
    /// which this server cannot (422); a result in another format is made as without them.
    static let gifv = ["filters:gifv()", "filters:gifv(webm)", "filters:gifv(mp4)"]

    func testEveryOptionAloneAnswers() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        origin.route("/gradient.jpg", .bytes(try Fixtures.benchData("testjfif_256.jpg"), contentType: "image/jpeg"))
        origin.route("/cmyk.jpg", .bytes(try Fixtures.imageData("jpeg/pil_pil_sample_cmyk.jpg"), contentType: "image/jpeg"))
        let rgba = try servePNG("rgba.png", width: 120, height: 90, fill: RGBA(r: 0, g: 0, b: 0, a: 0),
                                areas: [(PixelRect(x: 20, y: 10, width: 60, height: 50), RGBA(r: 200, g: 40, b: 40, a: 160))])
        let frames = [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 0, b: 255)].map {
            ImageFrame(pixels: PixelBuffer(width: 100, height: 100, fill: $0), duration: 0.1)
        }
        origin.route("/animated.gif", .bytes(try ImageCoders(WebImageCodecs.defaultCoders).encode(Image(frames: frames), as: .gif),
                                             contentType: "image/gif"))
        let coders = ImageCoders(WebImageCodecs.defaultCoders), gradient = Image(pixels: ImgproxyTestImages.geometry)
        let more: [(String, Data, String)] = [
            ("grayscale.jpg", try Fixtures.imageData("jpeg/sd_MonochromeTestImage.jpg"), "image/jpeg"),
            ("16bit.png", try Fixtures.imageData("png/pngsuite_basn2c16.png"), "image/png"),
            ("thumbor-exif.png", try ImgproxyTestImages.png(ImgproxyTestImages.geometry, exifOrientation: 6), "image/png"),
            ("gradient.webp", try coders.encode(gradient, as: .webp), "image/webp"),
            ("gradient.gif", try coders.encode(gradient, as: .gif), "image/gif"),
        ]
        for (name, data, type) in more { origin.route("/\(name)", .bytes(data, contentType: type)) }
        let images = [origin.url("/gradient.jpg").absoluteString, origin.url("/cmyk.jpg").absoluteString, rgba,
                      origin.url("/animated.gif").absoluteString] + more.map { origin.url("/\($0.0)").absoluteString }
        var failed: [String] = []
        let options = Self.options + Self.watermarks(of: rgba) + ["filters:frame(\(rgba))"] + Self.gifv
        for option in options {
            for image in images {
                let expected = Self.gifv.contains(option) && image.hasSuffix(".gif") ? 422 : 200
                let response = try await get(base + "/unsafe/\(option)/\(image)")
                if response.status != expected { failed.append("\(response.status) \(option) \(image)") }
            }
        }
        XCTAssertEqual(failed, [], "\(failed.count) of \(options.count * images.count)")
        let plain = try await get(base + "/unsafe/\(images[0])")
        for option in Self.gifv {
            let response = try await get(base + "/unsafe/\(option)/\(images[0])")
            XCTAssertEqual(response.body, plain.body, "\(option) leaves a JPEG result as it is")
        }
    }
}
