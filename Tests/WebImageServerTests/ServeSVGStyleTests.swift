import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `style`: the CSS is the root's first `<style>` of an SVG source, for the SVG
/// served and the one drawn, and is rewritten as every style sheet is, so a hostile one fetches
/// nothing.
final class ServeSVGStyleTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = try folder.folder("images", copying: [:])
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect class="a" width="20" height="20" fill="red"/></svg>"#.utf8)
            .write(to: root.appendingPathComponent("square.svg"))
    }

    func testTheStyleIsDrawnAndServedAndCannotFetch() async throws {
        let blue = "st:" + URLSafeBase64.encode(".a { fill: #0000ff }".utf8)
        let hostile = "st:" + URLSafeBase64.encode("@import url(http://evil.example/x.css); .a { fill: url(http://evil.example/p.svg#x) }".utf8)
        try await withRouterTestServer(in: folder) { client in
            let drawn = try await client.execute(uri: "/insecure/\(blue)/f:png/plain/local:///square.svg", method: .get)
            XCTAssertEqual(drawn.status, .ok)
            XCTAssertEqual(try ImageCoders.shared.decode(Data(buffer: drawn.body)).pixels[10, 10], RGBA(r: 0, g: 0, b: 255))
            let plain = try await client.execute(uri: "/insecure/f:png/plain/local:///square.svg", method: .get)
            XCTAssertEqual(try ImageCoders.shared.decode(Data(buffer: plain.body)).pixels[10, 10], RGBA(r: 255, g: 0, b: 0))
            let served = String(buffer: try await client.execute(uri: "/insecure/\(blue)/plain/local:///square.svg", method: .get).body)
            XCTAssertTrue(served.contains("<style>.a { fill: #0000ff }</style><rect"), served)
            let neutralised = String(buffer: try await client.execute(uri: "/insecure/\(hostile)/plain/local:///square.svg", method: .get).body)
            XCTAssertFalse(neutralised.contains("evil"), neutralised)
            XCTAssertTrue(neutralised.contains("<style>"), neutralised)
            let markup = "st:" + URLSafeBase64.encode("</style><script>alert(1)</script>".utf8)
            let escaped = String(buffer: try await client.execute(uri: "/insecure/\(markup)/plain/local:///square.svg", method: .get).body)
            XCTAssertFalse(escaped.contains("<script"), escaped)
            let bad = try await client.execute(uri: "/insecure/st:not%20base64/plain/local:///square.svg", method: .get)
            XCTAssertEqual(bad.status, .badRequest)
        }
    }
}
