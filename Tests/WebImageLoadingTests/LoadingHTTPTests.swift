import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// What the downloader sends and how it treats what comes back: header fields, validators,
/// modifiers, the decryptor, redirects, authentication and cookies.
final class LoadingHTTPTests: LoadingTestCase {
    func testDefaultHeaderFields() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader()
        downloader.setValue("tests", forHTTPHeaderField: "X-Client")
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: options())
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request[header: "accept"], "image/*,*/*;q=0.8")
        XCTAssertEqual(request[header: "user-agent"], "WebImage/\(WebImageVersion.string) (Linux)")
        XCTAssertEqual(request[header: "x-client"], "tests")
        XCTAssertNil(request[header: "authorization"])
        XCTAssertNil(request[header: "cookie"])
    }

    func testETagRevalidation() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg", etag: "\"v1\"", lastModified: lastModified))
        let downloader = makeDownloader()
        let first = try await downloader.image(for: server.url("/photo.jpg"), options: options())
        XCTAssertEqual(first.response.etag, "\"v1\"")
        XCTAssertEqual(first.response.lastModified, lastModified)
        XCTAssertEqual(first.response.mimeType, "image/jpeg")

        var conditional = options()
        conditional.ifNoneMatch = first.response.etag
        let error = await loadError { try await downloader.image(for: server.url("/photo.jpg"), options: conditional) }
        XCTAssertEqual(error, .cacheNotModified)
        XCTAssertEqual(error?.isPermanent, false)
        XCTAssertEqual(server.requests.last?[header: "if-none-match"], "\"v1\"")

        var byDate = options()
        byDate.ifModifiedSince = lastModified
        let dateError = await loadError { try await downloader.image(for: server.url("/photo.jpg"), options: byDate) }
        XCTAssertEqual(dateError, .cacheNotModified)

        var stale = options()
        stale.ifNoneMatch = "\"v0\""
        let fresh = try await downloader.image(for: server.url("/photo.jpg"), options: stale)
        XCTAssertEqual(fresh.data, jpeg)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 4)
    }

    func testConditionalAndPlainRequestsAreNotShared() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        // Both requests are held at the origin until both arrived: shared, there would be one.
        let gate = LoopbackHTTPGate()
        var held = LoopbackHTTPResponse.bytes(jpeg, etag: "\"v1\"")
        held.gate = gate
        server.route("/photo.jpg", held)
        let downloader = makeDownloader()
        var conditional = options()
        conditional.ifNoneMatch = "\"v1\""
        let url = server.url("/photo.jpg")
        let plainOptions = options()
        let revalidation = Task { () async throws(WebImageError) in try await downloader.image(for: url, options: conditional) }
        let plain = Task { () async throws(WebImageError) in try await downloader.image(for: url, options: plainOptions) }
        let both = await server.wait { $0.requestCount("/photo.jpg") == 2 }
        XCTAssertTrue(both, "the conditional and the plain request each reached the origin")
        gate.open()
        let image = try await plain.value
        let revalidated = await revalidation.result
        guard case .failure(let error) = revalidated else { return XCTFail("expected 304, got an image") }
        XCTAssertEqual(error as? WebImageError, .cacheNotModified)
        XCTAssertEqual(image.data, jpeg)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2)
    }

    func testRequestModifierChangesTheRequest() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader()
        var modified = options()
        modified.requestModifier = { request in
            try await Task.sleep(for: .milliseconds(10))
            var request = request
            request.headers.replaceOrAdd(name: "Authorization", value: "Bearer fresh-token")
            return request
        }
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: modified)
        XCTAssertEqual(server.requests.first?[header: "authorization"], "Bearer fresh-token")
    }

    func testRequestModifierReturningNilSendsNothing() async throws {
        let downloader = makeDownloader()
        var dropped = options()
        dropped.requestModifier = { _ in nil }
        let error = await loadError { try await downloader.image(for: self.server.url("/photo.jpg"), options: dropped) }
        XCTAssertEqual(error, .invalidDownloadOperation)
        XCTAssertEqual(server.requests.count, 0)
    }

    func testRequestModifierAddingABodySendsNothing() async throws {
        let downloader = makeDownloader()
        var withBody = options()
        withBody.requestModifier = { request in
            var request = request
            request.body = .bytes(Array("not for an image request".utf8))
            return request
        }
        let error = await loadError { try await downloader.image(for: self.server.url("/photo.jpg"), options: withBody) }
        XCTAssertEqual(error, .invalidDownloadOperation)
        XCTAssertEqual(server.requests.count, 0)
    }

    func testResponseModifier() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader()
        var rejecting = options()
        rejecting.responseModifier = { _ in nil }
        let error = await loadError { try await downloader.image(for: self.server.url("/photo.jpg"), options: rejecting) }
        XCTAssertEqual(error, .invalidDownloadResponse)

        var failing = options()
        failing.responseModifier = { response in
            var response = response
            response.statusCode = 418
            return response
        }
        let status = await loadError { try await downloader.image(for: self.server.url("/photo.jpg"), options: failing) }
        XCTAssertEqual(status, .badStatusCode(418))
    }

    func testDecryptorRunsBeforeDecoding() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let scrambled = Data(jpeg.map { $0 ^ 0x5A })
        server.route("/secret.bin", .bytes(scrambled, contentType: "application/octet-stream"))
        let downloader = makeDownloader()
        let plainError = await loadError { try await downloader.image(for: self.server.url("/secret.bin"), options: options()) }
        guard case .badImageData = plainError else { return XCTFail("scrambled bytes are no image: \(String(describing: plainError))") }

        var decrypting = options()
        decrypting.decryptor = { data, response in
            XCTAssertEqual(response.mimeType, "application/octet-stream")
            return Data(data.map { $0 ^ 0x5A })
        }
        let result = try await downloader.image(for: server.url("/secret.bin"), options: decrypting)
        XCTAssertEqual(result.image.pixelWidth, 256)
        XCTAssertEqual(result.data, jpeg, "the result holds the bytes the image was decoded from")
    }

    func testRedirectsAreFollowedUpToTheLimit() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        server.route("/old.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/photo.jpg")]))
        let downloader = makeDownloader()
        let result = try await downloader.image(for: server.url("/old.jpg"), options: options())
        XCTAssertEqual(result.response.url.path, "/photo.jpg")
        XCTAssertEqual(result.image.pixelWidth, 256)

        let strict = makeDownloader { $0.maxRedirects = 0 }
        let error = await loadError { try await strict.image(for: self.server.url("/old.jpg"), options: options()) }
        XCTAssertEqual(error, .badStatusCode(302))
    }

    func testBasicCredentials() async throws {
        server.route("/private.jpg") { request in
            request[header: "authorization"] == "Basic dXNlcjpzZWNyZXQ="
                ? .bytes(try! Fixtures.data(Fixtures.bench("testjfif_256.jpg"))) : .status(401)
        }
        let anonymous = makeDownloader()
        let error = await loadError { try await anonymous.image(for: self.server.url("/private.jpg"), options: options()) }
        XCTAssertEqual(error, .badStatusCode(401))
        let authorized = makeDownloader {
            $0.username = "user"
            $0.password = "secret"
        }
        let result = try await authorized.image(for: server.url("/private.jpg"), options: options())
        XCTAssertEqual(result.image.pixelWidth, 256)
    }

    func testCookiesOnlyWhenHandled() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/login.jpg", LoopbackHTTPResponse(headers: [("Set-Cookie", "session=abc; Path=/")], chunks: [jpeg]))
        server.route("/photo.jpg", .bytes(jpeg))
        let ignoring = makeDownloader()
        _ = try await ignoring.image(for: server.url("/login.jpg"), options: options())
        _ = try await ignoring.image(for: server.url("/photo.jpg"), options: options())
        XCTAssertNil(server.requests.last?[header: "cookie"])

        let handling = makeDownloader { $0.handleCookies = true }
        _ = try await handling.image(for: server.url("/login.jpg"), options: options())
        _ = try await handling.image(for: server.url("/photo.jpg"), options: options())
        XCTAssertEqual(server.requests.last?[header: "cookie"], "session=abc")
    }
}
