import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// A downloader under a ``ConnectionAddressPolicy`` connects to the address the policy chose,
/// never to one the name resolves to later, and asks again on every redirect.
final class LoadingAddressPolicyTests: LoadingTestCase {
    /// A policy that knows names from a fixed table, as a hosts file does, and refuses every other
    /// host: the `.invalid` names it maps resolve nowhere else, so a load that succeeds went to
    /// the address the policy gave.
    private struct HostsTable: ConnectionAddressPolicy {
        let addresses: [String: String]

        func address(connectingTo host: String) async throws(NetworkFailure) -> String {
            guard let address = addresses[host] else {
                throw NetworkFailure(.refusedAddress(host: host, why: "\(host) is not in the table"))
            }
            return address
        }
    }

    private var jpeg: Data!

    override func setUp() async throws {
        try await super.setUp()
        jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
    }

    /// `path` on the loopback server, under host name `host`.
    private func url(_ host: String, _ path: String) -> URL {
        URL(string: "http://\(host):\(server.port)\(path)")!
    }

    func testTheConnectionGoesToThePinnedAddressUnderTheHostName() async throws {
        let downloader = makeDownloader(addressPolicy: HostsTable(addresses: ["images.invalid": "127.0.0.1"]))
        let result = try await downloader.image(for: url("images.invalid", "/photo.jpg"), options: options())
        XCTAssertEqual(result.image.pixelWidth, 128)
        XCTAssertEqual(result.response.url, url("images.invalid", "/photo.jpg"))
        XCTAssertEqual(server.requests.first?[header: "Host"], "images.invalid:\(server.port)", "the Host field keeps the name")
    }

    func testARefusedHostIsNeverConnectedTo() async throws {
        let downloader = makeDownloader(addressPolicy: HostsTable(addresses: [:]))
        let error = await loadError { try await downloader.image(for: self.url("127.0.0.1", "/photo.jpg"), options: self.options()) }
        XCTAssertEqual(error, .network(NetworkFailure(.refusedAddress(host: "127.0.0.1", why: "127.0.0.1 is not in the table"))))
        XCTAssertEqual(error?.isPermanent, false)
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testEveryRedirectIsAskedAndCredentialsStayWithTheirOrigin() async throws {
        server.route("/inwards.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", url("metadata.invalid", "/photo.jpg").absoluteString)]))
        server.route("/across.jpg", LoopbackHTTPResponse(status: 307, headers: [("Location", url("cdn.invalid", "/photo.jpg").absoluteString)]))
        server.route("/within.jpg", LoopbackHTTPResponse(status: 301, headers: [("Location", "/photo.jpg")]))
        let policy = HostsTable(addresses: ["images.invalid": "127.0.0.1", "cdn.invalid": "127.0.0.1"])
        let downloader = makeDownloader(addressPolicy: policy) {
            $0.username = "user"
            $0.password = "secret"
        }

        let refused = await loadError { try await downloader.image(for: self.url("images.invalid", "/inwards.jpg"), options: self.options()) }
        guard case .network(let failure)? = refused, case .refusedAddress(host: "metadata.invalid", _) = failure.reason else {
            return XCTFail("expected the redirect's host to be refused, got \(String(describing: refused))")
        }
        XCTAssertEqual(server.requestedPaths, ["/inwards.jpg"])

        let across = try await downloader.image(for: url("images.invalid", "/across.jpg"), options: options())
        XCTAssertEqual(across.response.url, url("cdn.invalid", "/photo.jpg"))
        let within = try await downloader.image(for: url("images.invalid", "/within.jpg"), options: options())
        XCTAssertEqual(within.image.pixelWidth, 128)
        let requests = server.requests
        XCTAssertEqual(requests.map(\.path), ["/inwards.jpg", "/across.jpg", "/photo.jpg", "/within.jpg", "/photo.jpg"])
        XCTAssertEqual(requests.map { $0[header: "Host"] },
                       ["images.invalid", "images.invalid", "cdn.invalid", "images.invalid", "images.invalid"].map { "\($0):\(server.port)" })
        XCTAssertEqual(requests.map { $0[header: "Authorization"] != nil }, [true, true, false, true, true],
                       "credentials are not sent to another origin")
    }

    func testRedirectLimitsAndLoopsHold() async throws {
        server.route("/loop.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/loop.jpg")]))
        for hop in 0..<3 {
            server.route("/hop\(hop).jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/hop\(hop + 1).jpg")]))
        }
        server.route("/hop3.jpg", .bytes(jpeg, contentType: "image/jpeg"))
        let policy = HostsTable(addresses: ["images.invalid": "127.0.0.1"])
        let loop = await loadError {
            try await self.makeDownloader(addressPolicy: policy).image(for: self.url("images.invalid", "/loop.jpg"), options: self.options())
        }
        guard case .network(let cycle)? = loop else { return XCTFail("\(String(describing: loop))") }
        XCTAssertEqual(cycle.reason, .redirectLoop)
        let limited = await loadError {
            try await self.makeDownloader(addressPolicy: policy) { $0.maxRedirects = 2 }
                .image(for: self.url("images.invalid", "/hop0.jpg"), options: self.options())
        }
        guard case .network(let failure)? = limited else { return XCTFail("\(String(describing: limited))") }
        XCTAssertEqual(failure.reason, .tooManyRedirects(limit: 2))
        let enough = try await makeDownloader(addressPolicy: policy) { $0.maxRedirects = 3 }
            .image(for: url("images.invalid", "/hop0.jpg"), options: options())
        XCTAssertEqual(enough.image.pixelWidth, 128)
    }
}
