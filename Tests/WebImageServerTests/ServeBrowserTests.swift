import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `webimage serve` as a browser uses it: the ``BrowserTestPage`` loaded, then reloaded, in
/// headless Chromium (``HeadlessChromium``), so that what Chromium sends (its `Accept`, its device
/// pixel ratio, its cache's requests) meets what the server answers, and what it shows is
/// compared with the pictures the sources hold.
final class ServeBrowserTests: ServeTestCase {
    /// With the default one-year `Cache-Control: max-age`, the reload asks the server nothing.
    func testChromiumShowsEveryImageAsAskedAndReloadsThemFromItsCache() async throws {
        let (page, first, reload) = try await loadPageTwice()
        for image in page.images {
            try check(image, in: first)
            try checkAnswer(to: image, in: first)
            try check(image, in: reload)
        }
        assertReload(of: page, reload, revalidatedWith: nil)
        try await assertAnimationMoves(page, askedAs: first)
    }

    /// With `--ttl 0` every image is stale at once: the reload revalidates each, and the server
    /// answers 304 (its `ETag` against the browser's `If-None-Match`), after which the browser
    /// shows the same pictures.
    func testChromiumRevalidatesStaleImagesAndTheServerAnswers304() async throws {
        let (page, _, reload) = try await loadPageTwice(["--ttl", "0"])
        for image in page.images { try check(image, in: reload) }
        assertReload(of: page, reload, revalidatedWith: 304)
    }

    /// Starts the server (loopback sources allowed, WebP and AVIF negotiated, a cache folder,
    /// and `arguments`), routes the ``BrowserTestPage`` on the origin, loads it in Chromium and
    /// reloads it.
    private func loadPageTwice(_ arguments: [String] = []) async throws -> (BrowserTestPage, first: PageLoad, reload: PageLoad) {
        let chromium = try HeadlessChromium()
        let base = try await serve(["--allow-loopback-sources", "--auto-webp", "--auto-avif"] + arguments)
        let page = try BrowserTestPage(server: base, origin: origin)
        origin.route("/page.html", .html(page.html))
        let (first, reload) = try chromium.loadAndReload(origin.url("/page.html"))
        XCTAssertEqual(origin.requestCount("/page.html"), 2, "the page was loaded, then reloaded")
        return (page, first, reload)
    }

    /// Checks what the browser shows of `image` in `load`: the URL chosen, the event fired, the
    /// natural size and, for an image with an expected look, its screenshot.
    private func check(_ image: PageImage, in load: PageLoad) throws {
        let shown = try XCTUnwrap(load.image(image.id), "\(image.id) is on the page")
        XCTAssertEqual(shown.currentSrc, image.url, "\(image.id): the URL chosen")
        switch image.expected {
        case .shown(let width, let height, _, let look):
            XCTAssertEqual(shown.event, "load", image.id)
            XCTAssertEqual([shown.naturalWidth, shown.naturalHeight], [width, height], "\(image.id): natural size")
            if let look { try assertLooks(shown, like: look) }
        case .failed:
            XCTAssertEqual(shown.event, "error", "\(image.id): its error event fired")
            XCTAssertEqual([shown.naturalWidth, shown.naturalHeight], [0, 0], image.id)
        }
    }

    /// Checks the answer to the browser's first request for `image` in `load`: its status and,
    /// for an image, the type negotiated with the browser's `Accept`.
    private func checkAnswer(to image: PageImage, in load: PageLoad) throws {
        let answer = try XCTUnwrap(load.requests(for: image.url).first, "\(image.id) was requested")
        XCTAssertFalse(answer.fromCache, "\(image.id): asked of the server")
        switch image.expected {
        case .shown(_, _, let type, _):
            XCTAssertEqual(answer.status, 200, image.id)
            XCTAssertEqual(answer.mimeType, type, "\(image.id): the type negotiated for Accept: \(answer.accept ?? "none")")
        case .failed(let status):
            XCTAssertEqual(answer.status, status, image.id)
        }
    }

    /// Asserts that the screenshot of `shown` (in device pixels: its pixels one for one, the
    /// page showing it at half its natural size) looks as `look` says.
    private func assertLooks(_ shown: BrowserImage, like look: ExpectedLook) throws {
        let screenshot = try ImageCoders.shared.decode(try XCTUnwrap(shown.screenshot, "\(shown.id): screenshot")).pixels
        guard let difference = look.difference(from: screenshot) else {
            return XCTFail("\(shown.id): a \(screenshot.width)x\(screenshot.height) screenshot of a "
                + "\(look.reference.width)x\(look.reference.height) image")
        }
        XCTAssertLessThanOrEqual(difference.mean, look.tolerance, "\(shown.id) looks like its reference: \(difference)")
    }

    /// Asserts that the reload downloaded no image again: the server answered each image shown
    /// once with its bytes (200), then the reload's revalidation with `revalidation` (nil: the
    /// reload asked nothing), and the browser's requests of the reload say the same.
    private func assertReload(of page: BrowserTestPage, _ reload: PageLoad, revalidatedWith revalidation: Int?) {
        for image in page.images {
            guard case .shown = image.expected else { continue }
            XCTAssertEqual(loggedStatuses(of: image.url), [200] + [revalidation].compactMap { $0 }, "\(image.id): the server's answers")
            let requests = reload.requests(for: image.url)
            if let revalidation {
                XCTAssertEqual(requests.map(\.status), [revalidation], "\(image.id): revalidated")
            } else {
                XCTAssertEqual(requests.filter { !$0.fromCache }.count, 0, "\(image.id): reloaded from the cache: \(requests)")
            }
        }
    }

    /// The statuses the server logged for the requests of `url`, in order. Its log names a path
    /// without its signature segment (`insecure`).
    private func loggedStatuses(of url: String) -> [Int] {
        let path = "path=" + url.components(separatedBy: "/insecure").dropFirst().joined(separator: "/insecure")
        return servers[0].errorOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.contains(where: { $0 == path }) else { return nil }
            return fields.first { $0.hasPrefix("status=") }.flatMap { Int($0.dropFirst("status=".count)) }
        }
    }

    /// Asserts that the animated GIF, which the browser was answered in WebP, moves: asked again
    /// with the `Accept` the browser sent (which lists AVIF), it decodes to several frames.
    private func assertAnimationMoves(_ page: BrowserTestPage, askedAs load: PageLoad) async throws {
        let animation = try XCTUnwrap(page.images.first { $0.id == "animation" })
        let accept = try XCTUnwrap(load.requests(for: animation.url).first?.accept, "the browser's Accept")
        XCTAssertTrue(accept.contains("image/avif"), "Chromium lists AVIF, which an animation must not become: \(accept)")
        let response = try await get(animation.url, headers: [("Accept", accept)])
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/webp")
        XCTAssertGreaterThan(try ImageCoders.shared.decode(response.body).frames.count, 1, "the WebP answer moves")
    }
}
