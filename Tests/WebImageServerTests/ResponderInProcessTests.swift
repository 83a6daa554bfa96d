import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// The responder's HTTP behaviour in process, through HummingbirdTesting's router setup: no
/// port, no binary, `local:///` sources from a temporary folder. The end-to-end tests of the
/// built binary (Serve*Tests) keep what needs a real connection: deadlines, departures, limits
/// on connections, the memory-hit handler.
final class ResponderInProcessTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = folder.appending("images")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.bench("testjfif_1024.jpg"), to: root.appendingPathComponent("photo.jpg"))
    }

    private func withServer(key: String? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withRouterTestServer(in: folder, key: key, body)
    }

    func testAnImageIsMadeAndRevalidatedWithItsEntityTag() async throws {
        try await withServer { client in
            let made = try await client.execute(uri: "/insecure/rs:fit:200:200/plain/local:///photo.jpg@png", method: .get)
            XCTAssertEqual(made.status, .ok)
            XCTAssertEqual(made.headers[.contentType], "image/png")
            XCTAssertEqual(made.headers[.cacheControl], "max-age=31536000, public")
            let image = try ImageCoders.shared.decode(Data(buffer: made.body))
            XCTAssertEqual([image.pixelWidth, image.pixelHeight], [200, 150])
            let etag = try XCTUnwrap(made.headers[.eTag])
            var conditional = HTTPFields()
            conditional[.ifNoneMatch] = etag
            let revalidated = try await client.execute(
                uri: "/insecure/rs:fit:200:200/plain/local:///photo.jpg@png", method: .get, headers: conditional)
            XCTAssertEqual(revalidated.status, .notModified)
            XCTAssertEqual(revalidated.body.readableBytes, 0)
        }
    }

    func testRefusalsAreTypedStatusesWithOneLine() async throws {
        let localPath = folder.url.path
        try await withServer { client in
            let cases: [(String, HTTPRequest.Method, HTTPResponse.Status)] = [
                ("/insecure/rs:fit:200:200/plain/local:///photo.jpg", .post, .methodNotAllowed),
                ("/insecure/nonsense:1/plain/local:///photo.jpg", .get, .badRequest),
                ("/insecure/plain/local:///missing.jpg", .get, .notFound),
                ("/insecure/plain/http://1.2.3.4:99999/x.jpg", .get, .badRequest),
            ]
            for (uri, method, status) in cases {
                let response = try await client.execute(uri: uri, method: method)
                XCTAssertEqual(response.status, status, uri)
                let text = String(buffer: response.body)
                XCTAssertTrue(text.hasSuffix("\n") && text.dropLast().allSatisfy { $0 != "\n" }, "one line: \(text)")
                XCTAssertFalse(text.contains(localPath), "no path of this machine: \(text)")
            }
        }
    }

    func testASignatureIsRequiredWhenAKeyIsSet() async throws {
        try await withServer(key: "736563726574") { client in
            let unsigned = try await client.execute(uri: "/insecure/rs:fit:200:200/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(unsigned.status, .forbidden)
            let health = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(health.status, .ok)
        }
    }
}
