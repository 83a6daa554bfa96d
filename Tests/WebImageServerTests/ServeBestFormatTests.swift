import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `best` format, in process: a photo is answered in the smallest candidate
/// whose DSSIM is within 0.02 (checked against each candidate asked by name), a flat drawing
/// losslessly; AVIF and WebP are candidates only when `Accept` allows them (and the answer
/// varies by it); `@best`, the by-default setting and the resolution bound.
final class ServeBestFormatTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = try folder.folder("images", copying: ["photo.jpg": Fixtures.bench("testjfif_1024.jpg")])
        var drawing = PixelBuffer(width: 300, height: 200, fill: RGBA(r: 250, g: 250, b: 250))
        for y in 40..<160 { for x in 30..<270 { drawing[x, y] = x < 150 ? RGBA(r: 200, g: 30, b: 30) : RGBA(r: 30, g: 30, b: 200) } }
        try ImageCoders.shared.encode(Image(pixels: drawing), as: .png).write(to: root.appendingPathComponent("drawing.png"))
    }

    /// The answers of `paths` (after `/insecure/`) sent with `Accept: accept`, from a server `configure` sets up.
    private func answers(_ paths: [String], accept: String = "*/*",
                         configure: (inout ImageServer.Configuration) -> Void = { _ in }) async throws -> [RouterAnswer] {
        let answers = try await routerAnswers(in: folder, paths.map { "/insecure/\($0)" }, headers: [.accept: accept], configure: configure)
        for (path, answer) in zip(paths, answers) {
            XCTAssertEqual(answer.status, .ok, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return answers
    }

    /// Answers in WebP and AVIF when `Accept` allows them.
    private static func modern(_ configuration: inout ImageServer.Configuration) {
        configuration.formats.autoWebp = true
        configuration.formats.autoAvif = true
    }

    func testAPhotoIsTheSmallestCandidateThatKeepsThePicture() async throws {
        let photo = "rs:fit:300:300"
        let out = try await answers(["\(photo)/f:best/plain/local:///photo.jpg", "\(photo)/f:jpg/plain/local:///photo.jpg",
                                     "\(photo)/f:avif/plain/local:///photo.jpg", "\(photo)/f:webp/plain/local:///photo.jpg",
                                     "\(photo)/f:png/plain/local:///photo.jpg", "\(photo)/plain/local:///photo.jpg@best"],
                                    accept: "image/avif,image/webp,*/*", configure: Self.modern)
        let reference = try ImageCoders.shared.decode(out[4].body).pixels
        let named = try [(out[1], "image/jpeg"), (out[2], "image/avif"), (out[3], "image/webp")].map { answer, type in
            (answer, type, try StructuralSimilarity.dissimilarity(of: try ImageCoders.shared.decode(answer.body).pixels, against: reference))
        }
        // Within 0.02 or the format the URL would have without best (AVIF, the first accepted), whichever is larger.
        let bound = max(0.02, named[1].2)
        let eligible = named.filter { $0.2 <= bound }.map { ($0.0, $0.1) }
        let smallest = try XCTUnwrap(eligible.min { $0.0.body.count < $1.0.body.count })
        XCTAssertEqual(out[0].headers[.contentType], smallest.1)
        XCTAssertEqual(out[0].body, smallest.0.body, "the candidate as written at its own quality")
        XCTAssertEqual(out[0].headers[.vary], "Accept")
        XCTAssertEqual(out[5].body, out[0].body, "@best is the same")
        let plain = try await answers(["\(photo)/f:best/plain/local:///photo.jpg"], accept: "image/avif,image/webp,*/*")
        XCTAssertEqual(plain[0].headers[.contentType], "image/jpeg",
                       "without format detection only JPEG, PNG and GIF are candidates: GIF keeps the picture better, in 3 times the bytes")
    }

    func testAFlatDrawingIsWrittenLosslessly() async throws {
        let out = try await answers(["f:best/plain/local:///drawing.png", "f:png/plain/local:///drawing.png"],
                                    accept: "image/webp", configure: Self.modern)
        let best = try ImageCoders.shared.decode(out[0].body).pixels, exact = try ImageCoders.shared.decode(out[1].body).pixels
        XCTAssertEqual(best, exact, "lossless")
        XCTAssertLessThanOrEqual(out[0].body.count, out[1].body.count)
    }

    func testByDefaultAndTheResolutionBound() async throws {
        let byDefault = try await answers(["rs:fit:300:300/plain/local:///photo.jpg", "rs:fit:300:300/f:best/plain/local:///photo.jpg"]) {
            $0.output.bestFormat.byDefault = true
        }
        XCTAssertEqual(byDefault[0].body, byDefault[1].body)
        let bounded = try await answers(["f:best/plain/local:///drawing.png"], accept: "image/webp") {
            Self.modern(&$0)
            $0.output.bestFormat.maxResolution = 0.01
        }
        XCTAssertEqual(bounded[0].headers[.contentType], "image/webp", "over the bound a flat drawing goes straight to lossless WebP")
        let settings = try ImageServer.Configuration(environment: ["IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD": "8",
                                                                  "IMGPROXY_BEST_FORMAT_ALLOW_SKIPS": "true"])
        XCTAssertEqual(settings.output.bestFormat.complexityThreshold, 8)
        XCTAssertTrue(settings.output.bestFormat.allowSkips)
    }
}
