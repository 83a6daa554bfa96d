import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// How a real `webimage serve` connects to sources, against a real forward proxy and real TLS
/// origins on loopback: thumbor's `HTTP_LOADER_PROXY_*` (every source through the proxy, with
/// its credentials), the environment's `HTTP_PROXY` (loopback sources direct, as Go's rule
/// says), thumbor's `HTTP_LOADER_CA_CERTS` (a private CA's origin verified) and
/// `HTTP_LOADER_CLIENT_CERT`/`_KEY` (an origin that asks for a client certificate).
final class ServeSourceConnectionTests: ServeTestCase {
    private var png = Data()

    override func setUp() async throws {
        try await super.setUp()
        png = try ImgproxyTestImages.png(PixelBuffer(width: 8, height: 8, fill: RGBA(r: 200, g: 10, b: 10)))
        origin.route("/photo.png", .bytes(png, contentType: "image/png"))
    }

    private func resized(_ base: String, _ source: URL) async throws -> Int {
        try await get(base + "/insecure/rs:fit:4:4/plain/" + source.absoluteString).status
    }

    func testSourcesGoThroughTheConfiguredProxyWithItsCredentials() async throws {
        let proxy = try await LoopbackProxyServer.start(username: "images", password: "s3cret")
        let target = "127.0.0.1:\(origin.port)"
        let through = try await serve(["--allow-loopback-sources", "--source-proxy-host", "127.0.0.1", "--source-proxy-port", "\(proxy.port)",
                                       "--source-proxy-username", "images", "--source-proxy-password", "s3cret"])
        let proxied = try await resized(through, origin.url("/photo.png"))
        XCTAssertEqual(proxied, 200)
        XCTAssertEqual(proxy.tunnels, [target], "the download went through the proxy")
        let wrong = try await serve(["--allow-loopback-sources"], environment: [
            "THUMBOR_HTTP_LOADER_PROXY_HOST": "127.0.0.1", "THUMBOR_HTTP_LOADER_PROXY_PORT": "\(proxy.port)",
            "THUMBOR_HTTP_LOADER_PROXY_USERNAME": "images", "THUMBOR_HTTP_LOADER_PROXY_PASSWORD": "wrong",
        ])
        let refused = try await resized(wrong, origin.url("/photo.png"))
        XCTAssertNotEqual(refused, 200, "the proxy refused the credentials")
        XCTAssertEqual(proxy.tunnels.count, 1)
        XCTAssertEqual(origin.requestCount("/photo.png"), 1, "the origin saw only the proxied download")
        do {
            _ = try await serve(["--source-proxy-host", "127.0.0.1"])
            XCTFail("a proxy host without a port starts")
        } catch {
            XCTAssertTrue("\(error)".contains("--source-proxy-port"), "\(error)")
        }
        try await proxy.stop()
    }

    func testTheEnvironmentsProxyLeavesLoopbackSourcesDirect() async throws {
        let proxy = try await LoopbackProxyServer.start()
        let server = try await serve(["--allow-loopback-sources"], environment: ["HTTP_PROXY": "http://127.0.0.1:\(proxy.port)"])
        let direct = try await resized(server, origin.url("/photo.png"))
        XCTAssertEqual(direct, 200)
        XCTAssertEqual(proxy.tunnels, [], "Go's rule: loopback addresses are never proxied")
        XCTAssertEqual(origin.requestCount("/photo.png"), 1)
        try await proxy.stop()
    }

    func testAPrivateCAAndAClientCertificate() async throws {
        let serverFolder = folder.appending("server"), clientFolder = folder.appending("client")
        for made in [serverFolder, clientFolder] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let serverCertificate = try SelfSignedCertificate(in: serverFolder), clientCertificate = try SelfSignedCertificate(in: clientFolder)
        let verified = try await LoopbackHTTPServer.start(tls: LoopbackTLSIdentity(
            certificateFile: serverCertificate.certificateFile.path, privateKeyFile: serverCertificate.privateKeyFile.path))
        let asking = try await LoopbackHTTPServer.start(tls: LoopbackTLSIdentity(
            certificateFile: serverCertificate.certificateFile.path, privateKeyFile: serverCertificate.privateKeyFile.path,
            clientCertificateAuthorityFile: clientCertificate.certificateFile.path))
        for server in [verified, asking] { server.route("/photo.png", .bytes(png, contentType: "image/png")) }

        let systemRoots = try await serve(["--allow-loopback-sources"])
        let unverified = try await resized(systemRoots, verified.url("/photo.png"))
        XCTAssertNotEqual(unverified, 200, "the system's roots do not vouch for the origin")
        let trusting = try await serve(["--allow-loopback-sources", "--source-ca-certs", serverCertificate.certificateFile.path])
        let trusted = try await resized(trusting, verified.url("/photo.png"))
        XCTAssertEqual(trusted, 200)
        let withoutCertificate = try await resized(trusting, asking.url("/photo.png"))
        XCTAssertNotEqual(withoutCertificate, 200, "the origin asks for a client certificate")
        XCTAssertEqual(asking.requests.count, 0, "no request got past the handshake")
        let showing = try await serve(["--allow-loopback-sources"], environment: [
            "THUMBOR_HTTP_LOADER_CA_CERTS": serverCertificate.certificateFile.path,
            "THUMBOR_HTTP_LOADER_CLIENT_CERT": clientCertificate.certificateFile.path,
            "THUMBOR_HTTP_LOADER_CLIENT_KEY": clientCertificate.privateKeyFile.path,
        ])
        let shown = try await resized(showing, asking.url("/photo.png"))
        XCTAssertEqual(shown, 200)
        XCTAssertEqual(asking.requests.count, 1)
        XCTAssertThrowsError(try ImageServer.Configuration(environment: [:], arguments: ["--source-ca-certs", folder.appending("none.pem").path]))
        for server in [verified, asking] { try await server.stop() }
    }
}
