import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// What a hostile server cannot make the loaders do: follow a redirect out of HTTP(S), trust a
/// certificate nobody vouches for, or decode more pixels than allowed.
final class LoadingSecurityTests: LoadingTestCase {
    private var tlsServer: LoopbackHTTPServer?

    override func tearDown() async throws {
        try await tlsServer?.stop()
        try await super.tearDown()
    }

    /// A manager with every loader (HTTP, `file:`, `data:`), so that a followed redirect to
    /// another scheme would have a loader to read it.
    private func makeManagerWithEveryLoader(_ downloader: HTTPImageDownloader) throws -> ImageManager {
        try makeManager(ImageLoaders.standard(downloader: downloader), folder: try TemporaryFolder(self).url)
    }

    private func loadFailure(_ manager: ImageManager, _ url: URL, options: WebImageOptions = [])
        async -> WebImageError?
    {
        do {
            let result = try await manager.image(for: url, options: options)
            XCTFail("expected an error, got an image from \(result.source)")
            return nil
        } catch {
            return error
        }
    }

    func testARedirectToAFileURLIsRefused() async throws {
        let file = Fixtures.image("jpeg/pil_hopper.jpg")
        server.route("/photo.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", file.absoluteString)]))
        let manager = try makeManagerWithEveryLoader(makeDownloader())
        let error = await loadFailure(manager, server.url("/photo.jpg"))
        XCTAssertEqual(error, .invalidURL("refused a redirect to a file: URL: only http and https redirects are followed"))
        XCTAssertEqual(error?.isPermanent, true, "the URL is not tried again")
        XCTAssertEqual(server.requests.count, 1)
        let direct = try await manager.image(for: file)
        XCTAssertEqual(direct.image.pixelWidth, 128, "the file is readable: only the redirect to it is refused")
    }

    func testRedirectsToOtherSchemesAreRefused() async throws {
        let png = try Fixtures.imageData("png/pngsuite_basn0g01.png")
        let locations = [
            "data:image/png;base64,\(png.base64EncodedString())", "ftp://127.0.0.1:\(server.port)/photo.jpg",
            "http+unix://%2Ftmp%2Fwebimage.sock/photo.jpg", "unix:///tmp/webimage.sock", "gopher://127.0.0.1/photo.jpg",
            "javascript:alert(1)", "FILE:///etc/passwd",
        ]
        let manager = try makeManagerWithEveryLoader(makeDownloader())
        for (index, location) in locations.enumerated() {
            server.route("/\(index).jpg", LoopbackHTTPResponse(status: 301, headers: [("Location", location)]))
            let error = await loadFailure(manager, server.url("/\(index).jpg"))
            guard case .invalidURL(let why)? = error else { XCTFail("\(location): \(String(describing: error))"); continue }
            XCTAssertTrue(why.hasPrefix("refused a redirect to a "), why)
        }
        XCTAssertEqual(server.requestedPaths, locations.indices.map { "/\($0).jpg" }, "no redirect was followed")
    }

    func testARedirectBetweenHTTPURLsIsStillFollowed() async throws {
        server.route("/old.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", server.url("/new.jpg").absoluteString)]))
        server.route("/new.jpg", .bytes(try Fixtures.imageData("jpeg/pil_hopper.jpg"), contentType: "image/jpeg"))
        let result = try await makeDownloader().image(for: server.url("/old.jpg"), options: options())
        XCTAssertEqual(result.image.pixelWidth, 128)
        XCTAssertEqual(server.requestedPaths, ["/old.jpg", "/new.jpg"])
    }

    /// An HTTPS server on loopback with a certificate made for this test, serving a JPEG.
    private func startSelfSignedServer() async throws -> LoopbackHTTPServer {
        let certificate = try SelfSignedCertificate(in: try TemporaryFolder(self).url)
        let server = try await LoopbackHTTPServer.start(
            tls: LoopbackTLSIdentity(certificateFile: certificate.certificateFile.path,
                                     privateKeyFile: certificate.privateKeyFile.path))
        tlsServer = server
        server.route("/photo.jpg", .bytes(try Fixtures.imageData("jpeg/pil_hopper.jpg"), contentType: "image/jpeg"))
        return server
    }

    func testASelfSignedServerIsRefusedByDefault() async throws {
        let tls = try await startSelfSignedServer()
        let url = tls.url("/photo.jpg")
        XCTAssertEqual(url.scheme, "https")
        let error = await loadError { try await makeDownloader().image(for: url, options: options()) }
        guard case .network(let failure)? = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        XCTAssertEqual(failure.reason, .untrustedCertificate(host: "127.0.0.1"))
        XCTAssertEqual(error?.description, "the certificate of 127.0.0.1 is not trusted (self-signed, expired, or for another name)")
        let cause = try XCTUnwrap(failure.cause)
        XCTAssertTrue(cause.contains("CERTIFICATE_VERIFY_FAILED"), cause)
        XCTAssertFalse(cause.contains(".cc:"), "no BoringSSL source path: \(cause)")
        let manager = try makeManager(makeDownloader(), folder: try TemporaryFolder(self).url)
        let viaManager = await loadFailure(manager, url)
        guard case .network? = viaManager else { return XCTFail("expected a network error, got \(String(describing: viaManager))") }
        XCTAssertEqual(tls.requests.count, 0, "no request got past the handshake")
    }

    func testASelfSignedServerIsAcceptedOnlyWithAllowInvalidSSLCertificates() async throws {
        let tls = try await startSelfSignedServer()
        let url = tls.url("/photo.jpg")
        let configured = try await makeDownloader { $0.allowInvalidSSLCertificates = true }.image(for: url, options: options())
        XCTAssertEqual(configured.image.pixelWidth, 128)

        let downloader = makeDownloader()
        var perRequest = options()
        perRequest.allowInvalidSSLCertificates = true
        let allowed = try await downloader.image(for: url, options: perRequest)
        XCTAssertEqual(allowed.image.pixelWidth, 128)
        let refused = await loadError { try await downloader.image(for: url, options: options()) }
        guard case .network? = refused else { return XCTFail("expected a network error, got \(String(describing: refused))") }

        let manager = try makeManager(makeDownloader(), folder: try TemporaryFolder(self).url)
        let viaManager = try await manager.image(for: url, options: .allowInvalidSSLCertificates)
        XCTAssertEqual(viaManager.source, .network)
        XCTAssertEqual(tls.requests.count, 3)
    }

    func testAnImageOverThePixelLimitIsRefusedAfterTheDownload() async throws {
        server.route("/large.jpg", .bytes(try Fixtures.twelveMegapixelPhoto(), contentType: "image/jpeg"))
        let options = ImageLoaderOptions(decodeOptions: ImageDecodeOptions(maxPixels: 1_000_000), coders: Self.coders)
        let error = await loadError { try await makeDownloader().image(for: server.url("/large.jpg"), options: options) }
        XCTAssertEqual(error, .badImageData(.tooManyPixels(width: 4032, height: 3024, limit: 1_000_000)))
        XCTAssertEqual(error?.isPermanent, false, "over this load's limit: a smaller decode may take it")
    }
}
