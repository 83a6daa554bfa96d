import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// Downloads through a forward proxy (``HTTPProxyRule``): a real `CONNECT` proxy on loopback
/// sees each tunnel, asks for credentials, and the environment's rule follows Go's reading of
/// `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`.
final class LoadingProxyTests: LoadingTestCase {
    private var jpeg: Data!

    override func setUp() async throws {
        try await super.setUp()
        jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
    }

    func testDownloadsGoThroughTheProxyWithAndWithoutAnAddressPolicy() async throws {
        let proxy = try await LoopbackProxyServer.start(username: "app", password: "pass")
        let rule = HTTPProxyRule.all(through: HTTPProxy(host: "127.0.0.1", port: proxy.port, username: "app", password: "pass"))
        let plain = makeDownloader { $0.proxy = rule }
        let result = try await plain.image(for: server.url("/photo.jpg"), options: options())
        XCTAssertEqual(result.image.pixelWidth, 128)
        struct Loopback: ConnectionAddressPolicy {
            func address(connectingTo host: String) async throws(NetworkFailure) -> String { "127.0.0.1" }
        }
        let pinned = makeDownloader(addressPolicy: Loopback()) { $0.proxy = rule }
        _ = try await pinned.image(for: server.url("/photo.jpg?again"), options: options())
        XCTAssertEqual(proxy.tunnels, Array(repeating: "127.0.0.1:\(server.port)", count: 2))

        let anonymous = makeDownloader { $0.proxy = .all(through: HTTPProxy(host: "127.0.0.1", port: proxy.port)) }
        let refused = await loadError { try await anonymous.image(for: self.server.url("/photo.jpg?third"), options: self.options()) }
        XCTAssertNotNil(refused, "the proxy asks for credentials")
        XCTAssertEqual(proxy.tunnels.count, 2)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2)
        try await proxy.stop()
    }

    func testTheEnvironmentsRuleIsGos() throws {
        let rule = HTTPProxyRule.environment([
            "HTTP_PROXY": "proxy.example:3128", "https_proxy": "http://user:p%40ss@secure.example:8443",
            "NO_PROXY": "internal.example, .corp.example,10.0.0.0/8, 192.168.1.5, cdn.example:8080, [::2]",
        ])
        XCTAssertEqual(rule.httpProxy, HTTPProxy(host: "proxy.example", port: 3128))
        XCTAssertEqual(rule.httpsProxy, HTTPProxy(host: "secure.example", port: 8443, username: "user", password: "p@ss"))
        func proxy(_ url: String) -> String? { rule.proxy(for: URL(string: url)!)?.host }
        XCTAssertEqual(proxy("http://images.example/a.jpg"), "proxy.example")
        XCTAssertEqual(proxy("https://images.example/a.jpg"), "secure.example")
        for direct in ["http://internal.example/a", "http://a.internal.example/a", "http://b.corp.example/a", "http://10.1.2.3/a",
                       "http://192.168.1.5/a", "http://cdn.example:8080/a", "http://[::2]/a", "http://localhost/a", "http://127.0.0.1:8080/a",
                       "http://[::1]/a"] {
            XCTAssertNil(proxy(direct), direct)
        }
        for proxied in ["http://xinternal.example/a", "http://cdn.example/a", "http://11.0.0.1/a", "http://192.168.1.6/a", "ftp://images.example/a"] {
            XCTAssertEqual(proxy(proxied) != nil, !proxied.hasPrefix("ftp"), proxied)
        }
        XCTAssertNil(HTTPProxyRule.environment(["NO_PROXY": "*", "HTTP_PROXY": "proxy.example:1"]).proxy(for: URL(string: "http://a.example/")!))
        XCTAssertEqual(HTTPProxyRule.environment(["HTTP_PROXY": "http://upper:1", "http_proxy": "http://lower:2"]).httpProxy?.host, "upper",
                       "the upper-case name wins, as in Go")
        XCTAssertNil(HTTPProxy(url: "socks5://proxy.example:1080"))
        XCTAssertNil(HTTPProxy(url: ""))
        XCTAssertEqual(HTTPProxy(url: "proxy.example")?.port, 80)
    }
}
