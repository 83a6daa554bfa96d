import Foundation
import LoopbackHTTPServer
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Served SVG in a real browser, as an attacker who can upload one would use it: the crafted
/// documents of `Tests/Fixtures/vector/hostile` (scripts, handlers, `foreignObject` with HTML,
/// SMIL that sets handlers and links, style sheets and images that fetch, CSS that hides a
/// fetch from a scanner, a processing instruction where the declaration goes), answered as
/// SVG and opened in headless Chromium as the top-level document and inside `<img>`,
/// `<object>` and `<iframe>`, pointed at and clicked. A loopback server stands for the
/// attacker: each document names it wherever it would fetch or send something.
///
/// Each document is opened twice: as the server answers it (the sanitizer's rewrite under the
/// server's `Content-Security-Policy`), and as the sanitizer rewrites it served bare by the
/// test's origin, with no policy, so that the rewrite is shown safe on its own.
final class ServeSVGBrowserSafetyTests: ServeTestCase {
    /// The crafted documents, each drawing a blue square around its attack.
    static let hostile = ["foreign_object.svg", "smil_handlers.svg", "style_fetch.svg", "external_refs.svg", "script_handlers.svg",
                          "css_tokens.svg", "style_children.svg", "leading_instruction.svg", "url_edges.svg"]

    /// Lays the hostile documents out in a folder of the test, each naming `attacker` where it
    /// says `ATTACKER`.
    private func hostileFolder(naming attacker: LoopbackHTTPServer) throws -> URL {
        let root = folder.appending("hostile")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in Self.hostile {
            let text = try String(contentsOf: Fixtures.subset.root.appendingPathComponent("vector/hostile/\(name)"), encoding: .utf8)
            try Data(text.replacingOccurrences(of: "ATTACKER", with: "127.0.0.1:\(attacker.port)").utf8)
                .write(to: root.appendingPathComponent(name))
        }
        return root
    }

    /// No script runs (no alert, no change of `window.name`, no error in the console) and no
    /// request reaches the attacker, whichever way the browser opens the answers.
    func testServedSVGRunsNoScriptAndReachesNoOneInChromium() async throws {
        let chromium = try HeadlessChromium()
        let attacker = try await LoopbackHTTPServer.start()
        let root = try hostileFolder(naming: attacker)
        let base = try await serve(["--local-root", root.path])
        var urls = Self.hostile.map { base + "/insecure/plain/local:///" + $0 }
        for name in Self.hostile {
            let rewritten = try SVGSanitizer(policy: .serving).sanitize(Data(contentsOf: root.appendingPathComponent(name)))
            origin.route("/bare/" + name, .bytes(rewritten, contentType: "image/svg+xml"))
            urls.append(origin.url("/bare/" + name).absoluteString)
        }
        let embeds = urls.enumerated().map { index, url in
            """
            <img id="img-\(index)" src="\(url)" width="40" height="40">
            <object id="object-\(index)" data="\(url)" type="image/svg+xml" width="40" height="40"></object>
            <iframe id="iframe-\(index)" src="\(url)" width="40" height="40"></iframe>
            """
        }
        origin.route("/embeds.html", .html("<!DOCTYPE html><html><body>\(embeds.joined(separator: "\n"))</body></html>"))
        let probe = try chromium.probe(documents: urls.map { URL(string: $0)! }, embeddedIn: origin.url("/embeds.html"))
        try await attacker.stop()

        XCTAssertEqual(attacker.requestedPaths, [], "nothing reached the attacker")
        // Nor the documents' own origins: no path but the documents, the page and the icon.
        let known = Set(["/embeds.html", "/favicon.ico"] + Self.hostile.map { "/bare/" + $0 })
        XCTAssertEqual(origin.requestedPaths.filter { !known.contains($0) }, [], "the test origin was asked for nothing else")
        let served = Set(Self.hostile.map { "path=/plain/local:///" + $0 } + ["path="])
        let logged = servers[0].errorOutput.split(separator: " ").filter { $0.hasPrefix("path=") }.map(String.init)
        XCTAssertEqual(logged.filter { !served.contains($0) }, [], "the server was asked for nothing else")
        XCTAssertEqual(probe.documents.count, urls.count)
        for report in probe.documents + [probe.page] {
            XCTAssertEqual(report.alerts, [], "\(report.url): no alert")
            XCTAssertNotEqual(report.name, "pwned", "\(report.url): window.name")
            // The browser asks the server for /favicon.ico, which is a 404; nothing else may fail.
            let errors = report.console.filter { $0.level == "SEVERE" && !$0.message.contains("favicon.ico") }
            XCTAssertEqual(errors.map(\.description), [], "\(report.url): console errors (\(report.errors))")
        }
        XCTAssertEqual(probe.page.name, "", "the embedding page's window.name is read and untouched")
        XCTAssertEqual(origin.requestCount("/embeds.html"), 1)
    }
}
