import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `autoquality`, in process, on a real photo, checked against the same result
/// asked at each quality of the range: by size, the answer is the highest quality whose file
/// fits; by DSSIM, one whose DSSIM (against the unencoded result, the PNG of the same URL) is
/// within the target while the quality below it is not. A URL's own quality wins; lossless
/// outputs are left alone.
final class ServeAutoqualityTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        try folder.folder("images", copying: ["photo.jpg": Fixtures.bench("testjfif_1024.jpg")])
    }

    /// The bodies of `options`' URLs for a 160-pixel fit of the photo, in order.
    private func bodies(_ options: [String]) async throws -> [Data] {
        let answers = try await routerAnswers(in: folder, options.map { "/insecure/rs:fit:160:160/\($0)/plain/local:///photo.jpg" })
        for (option, answer) in zip(options, answers) {
            XCTAssertEqual(answer.status, .ok, "\(option): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return answers.map(\.body)
    }

    func testBySizeTheHighestQualityThatFits() async throws {
        let range = 60...80
        let fixed = try await bodies(range.map { "q:\($0)/f:jpg" })
        let target = (fixed.first!.count + fixed.last!.count) / 2
        let chosen = try await bodies(["aq:size:\(target):60:80/f:jpg"])[0]
        let fitting = try XCTUnwrap(Array(zip(range, fixed)).last { $0.1.count <= target })
        XCTAssertEqual(chosen, fitting.1, "quality \(fitting.0), the highest of at most \(target) bytes")
        let tiny = try await bodies(["aq:size:10:60:80/f:jpg"])[0]
        XCTAssertEqual(tiny, fixed.first, "nothing fits: the lowest quality")
    }

    func testByDSSIMTheQualityWhoseBelowMissesTheTarget() async throws {
        let range = 40...90
        let fixed = try await bodies(range.map { "q:\($0)/f:webp" })
        let exact = try await bodies(["f:png"])[0]
        let reference = try ImageCoders.shared.decode(exact).pixels
        let dssim = try fixed.map { try StructuralSimilarity.dissimilarity(of: try ImageCoders.shared.decode($0).pixels, against: reference) }
        // A target between the range's ends, so that the search has work to do.
        let target = ((dssim.first! + dssim.last!) / 2 * 1_000_000).rounded() / 1_000_000
        let chosen = try await bodies(["aq:dssim:\(target):40:90:0/f:webp"])[0]
        let index = try XCTUnwrap(fixed.firstIndex(of: chosen), "the answer is one of the range's qualities")
        XCTAssertLessThanOrEqual(dssim[index], target, "quality \(range.lowerBound + index) is within the target")
        if index > 0 { XCTAssertGreaterThan(dssim[index - 1], target, "and the one below is not") }
        XCTAssertGreaterThan(dssim[0], target, "the target is inside the range, so the search is tested")
    }

    func testAURLsQualityWinsAndLosslessOutputsAreLeftAlone() async throws {
        let out = try await bodies(["q:50/f:jpg", "q:50/aq:size:100/f:jpg", "f:png", "aq:dssim:0.001/f:png", "f:jpg", "aq:none/f:jpg"])
        XCTAssertEqual(out[0], out[1], "the URL's quality")
        XCTAssertEqual(out[2], out[3], "PNG has no quality")
        XCTAssertEqual(out[4], out[5])
        let settings = try ImageServer.Configuration(environment: [
            "IMGPROXY_AUTOQUALITY_METHOD": "dssim", "IMGPROXY_AUTOQUALITY_TARGET": "0.01", "IMGPROXY_AUTOQUALITY_MIN": "50",
            "IMGPROXY_AUTOQUALITY_FORMAT_MAX": "avif=70,webp=85", "IMGPROXY_AUTOQUALITY_ALLOWED_ERROR": "0.0005",
            "IMGPROXY_AUTOQUALITY_MAX_RESOLUTION": "2"])
        XCTAssertEqual(settings.output.autoquality.method, .dssim)
        XCTAssertEqual(settings.output.autoquality.qualities(for: .webp), 50...85)
        XCTAssertEqual(settings.output.autoquality.qualities(for: .jpeg), 50...80)
        XCTAssertEqual(settings.output.autoquality.maxResolution, 2)
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_AUTOQUALITY_METHOD": "guess"]))
        try await withRouterTestServer(in: folder) { client in
            for option in ["aq:fast", "aq:size:-1", "aq:dssim:0.02:0", "aq:dssim:0.02:70:101", "aq:dssim:0.02:70:80:2"] {
                let answer = try await client.execute(uri: "/insecure/\(option)/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .badRequest, option)
            }
        }
    }
}
