import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's chained pipelines, in process, on a real photo: a pipeline processes the one
/// before's result (a blur chained after a resize is the blur of one pipeline; a resize chained
/// after another resizes the result), each pipeline lays its own watermark, and the limits count
/// over the whole chain.
final class ServeChainedPipelinesTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = try folder.folder("images", copying: ["photo.jpg": Fixtures.bench("testjfif_1024.jpg")])
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 200, height: 100, fill: RGBA(r: 255, g: 255, b: 255))), as: .png)
            .write(to: root.appendingPathComponent("white.png"))
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 20, height: 10, fill: RGBA(r: 255, g: 0, b: 0))), as: .png)
            .write(to: root.appendingPathComponent("red.png"))
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 20, height: 10, fill: RGBA(r: 0, g: 0, b: 255))), as: .png)
            .write(to: root.appendingPathComponent("blue.png"))
    }

    /// The status and decoded pixels of the answers of `paths` (after `/insecure/`), in order.
    private func answers(_ paths: [String]) async throws -> [(status: HTTPResponse.Status, pixels: PixelBuffer?)] {
        try await routerAnswers(in: folder, paths.map { "/insecure/\($0)" }).map { ($0.status, try? ImageCoders.shared.decode($0.body).pixels) }
    }

    func testAPipelineProcessesThePreviousResult() async throws {
        let out = try await answers(["rs:fit:200:200/bl:3/f:png/plain/local:///photo.jpg",
                                     "rs:fit:200:200/-/bl:3/f:png/plain/local:///photo.jpg",
                                     "rs:fit:400:400/-/rs:fit:100:100/f:png/plain/local:///photo.jpg",
                                     "rs:fit:100:100/f:png/plain/local:///photo.jpg"])
        XCTAssertTrue(out.allSatisfy { $0.status == .ok })
        XCTAssertEqual(out[0].pixels, out[1].pixels, "a blur chained after the resize is the blur after it")
        let twice = try XCTUnwrap(out[2].pixels), once = try XCTUnwrap(out[3].pixels)
        XCTAssertEqual([twice.width, twice.height], [once.width, once.height], "the second pipeline resized the first's result")
        XCTAssertNotEqual(twice, once, "from the first's pixels, not the source's")
    }

    func testEachPipelineLaysItsOwnWatermark() async throws {
        let red = "wmu:" + URLSafeBase64.encode("local:///red.png".utf8), blue = "wmu:" + URLSafeBase64.encode("local:///blue.png".utf8)
        let out = try await answers(["wm:1:nowe/\(red)/-/wm:1:soea/\(blue)/f:png/plain/local:///white.png"])
        let pixels = try XCTUnwrap(out[0].pixels)
        XCTAssertEqual(pixels.box(of: RGBA(r: 255, g: 0, b: 0)).box, "0,0,20,10")
        XCTAssertEqual(pixels.box(of: RGBA(r: 0, g: 0, b: 255)).box, "180,90,20,10")
    }

    func testTheResultDimensionBoundHoldsInEveryPipeline() async throws {
        let answers = try await routerAnswers(in: folder, ["/insecure/rs:fit:50:50/-/rs:fit:1000:1000:1/f:png/plain/local:///photo.jpg"]) {
            $0.limits.maxResultDimension = 120
        }
        let pixels = try ImageCoders.shared.decode(answers[0].body).pixels
        XCTAssertEqual(max(pixels.width, pixels.height), 120, "enlarged by the second pipeline, to the server's bound only")
    }

    func testTheLimitsCountOverTheWholeChain() async throws {
        let enlarged = "rs:fit:4000:4000:1/-/rs:fit:8000:8000:1/-/rs:fit:16000:16000:1"
        let out = try await answers(["\(enlarged)/plain/local:///photo.jpg",
                                     "rs:fit:3000:3000:1/bl:30/-/bl:30/-/bl:30/plain/local:///photo.jpg"])
        XCTAssertEqual(out[0].status, .unprocessableContent, "the last pipeline's result is over the pixel limit")
        XCTAssertEqual(out[1].status, .unprocessableContent, "three blurs of 30 over 6 megapixels are over the blur bound together")
    }
}
