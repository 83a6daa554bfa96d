import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// URLs AsyncHTTPClient would trap on (a port above 65535 reaches `SocketAddress`'s `UInt16`
/// conversion) are refused with an error, wherever they come from: the caller, a request
/// modifier, or an origin's `Location` field, with or without an address policy.
final class LoadingURLCheckTests: LoadingTestCase {
    /// Connects every host to this machine, so that a redirect followed under a policy would
    /// reach the loopback server.
    private struct EveryHostIsLoopback: ConnectionAddressPolicy {
        func address(connectingTo host: String) async throws(NetworkFailure) -> String { "127.0.0.1" }
    }

    /// Ports a URL can name that no connection can use, and what the error says of each.
    private static let badPorts = [
        ("127.0.0.1:99999", "has port 99999, outside 1…65535"),
        ("[::1]:70000", "has port 70000, outside 1…65535"),
        ("127.0.0.1:0", "has port 0, outside 1…65535"),
        ("127.0.0.1:99999999999999999999999", "has a port outside 1…65535"),
    ]

    func testAPortOutsideTheRangeIsRefusedBeforeAnyRequest() async throws {
        let downloader = makeDownloader()
        for (authority, why) in Self.badPorts {
            let url = URL(string: "http://\(authority)/x.jpg")!
            let error = await loadError { try await downloader.image(for: url, options: self.options()) }
            XCTAssertEqual(error, .invalidURL("\(url.absoluteString) \(why)"))
            XCTAssertEqual(error?.isPermanent, true)
        }
        XCTAssertEqual(ImageLoaders.standard(downloader: downloader).whyUnhandled(URL(string: "https://a.example:65536/x")!),
                       "https://a.example:65536/x has port 65536, outside 1…65535")
        XCTAssertNil(HTTPRequestURL.problem(with: URL(string: "http://a.example:65535/x")!))
        XCTAssertNil(HTTPRequestURL.problem(with: URL(string: "http://a.example:/x")!), "an empty port is the default port")
        for text in ["http://%5B/x.jpg", "http://%5D/x.jpg", "http://%5B%5D/x.jpg", "http://a%20b/x.jpg", "http://a%00b/x.jpg"] {
            guard let url = URL(string: text) else { continue }
            XCTAssertNotNil(HTTPRequestURL.problem(with: url), text)
            let error = await loadError { try await downloader.image(for: url, options: self.options()) }
            guard case .invalidURL? = error else { XCTFail("\(text): \(String(describing: error))"); continue }
        }
    }

    func testARedirectToAPortOutsideTheRangeIsRefusedWithOrWithoutAnAddressPolicy() async throws {
        let jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
        let locations = Self.badPorts.map { "http://\($0.0)/x.jpg" } + ["//127.0.0.1:99999/relative.jpg", "http://%5B%5D/x.jpg"]
        for (index, location) in locations.enumerated() {
            server.route("/\(index).jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", location)]))
        }
        for policy in [nil, EveryHostIsLoopback()] as [(any ConnectionAddressPolicy)?] {
            let downloader = makeDownloader(addressPolicy: policy)
            for index in locations.indices {
                let error = await loadError { try await downloader.image(for: self.server.url("/\(index).jpg"), options: self.options()) }
                guard case .invalidURL(let why)? = error else { XCTFail("\(locations[index]): \(String(describing: error))"); continue }
                XCTAssertTrue(why.hasPrefix("refused a redirect to http://"), why)
                XCTAssertTrue(why.contains("outside 1…65535") || why.hasSuffix("has no host"), why)
            }
            let result = try await downloader.image(for: server.url("/photo.jpg"), options: options())
            XCTAssertEqual(result.image.pixelWidth, 128, "the downloader goes on working")
        }
    }

    func testARequestModifierCannotSendToAPortOutsideTheRange() async throws {
        var modified = options()
        modified.requestModifier = { request in
            var request = request
            request.url = "http://127.0.0.1:99999/x.jpg"
            return request
        }
        let error = await loadError { try await self.makeDownloader().image(for: self.server.url("/photo.jpg"), options: modified) }
        XCTAssertEqual(error, .invalidURL("http://127.0.0.1:99999/x.jpg has port 99999, outside 1…65535"))
        XCTAssertEqual(server.requests.count, 0)
    }
}
