import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import XCTest

/// How `webimage get` reports failures: one plain sentence per URL, the underlying cause only
/// with `--verbose`, and the flags that change them (`--insecure`, `--timeout`).
final class CommandLineErrorTests: XCTestCase {
    private var folder: URL!
    private var server: LoopbackHTTPServer!

    override func setUp() async throws {
        folder = try TemporaryFolder(self).url
        server = try await LoopbackHTTPServer.start()
        server.route("/photo.jpg", .bytes(try Fixtures.imageData("jpeg/pil_hopper.jpg"), contentType: "image/jpeg"))
    }

    override func tearDown() async throws {
        try await server.stop()
    }

    /// Neither a build path nor a Swift type name nor an errno dump.
    private func assertPlain(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for raw in ["/.build/", ".cc:", "HTTPClientError", "NIOSSL", "errno", "BoringSSL"] {
            XCTAssertFalse(text.contains(raw), "\(raw) in \(text)", file: file, line: line)
        }
    }

    func testAnUntrustedCertificateIsASentenceAndInsecureAcceptsIt() async throws {
        let certificate = try SelfSignedCertificate(in: folder)
        let tls = try await LoopbackHTTPServer.start(
            tls: LoopbackTLSIdentity(certificateFile: certificate.certificateFile.path,
                                     privateKeyFile: certificate.privateKeyFile.path))
        tls.route("/photo.jpg", .bytes(try Fixtures.imageData("jpeg/pil_hopper.jpg"), contentType: "image/jpeg"))
        let url = tls.url("/photo.jpg").absoluteString

        let refused = try WebImageCLI.run(["get", "--no-cache", url])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.error.contains("\(url): the certificate of 127.0.0.1 is not trusted"), refused.error)
        assertPlain(refused.error)
        XCTAssertFalse(refused.error.contains("cause:"), "the cause only with --verbose")

        let verbose = try WebImageCLI.run(["get", "--no-cache", "--verbose", url])
        XCTAssertTrue(verbose.error.contains("cause:") && verbose.error.contains("CERTIFICATE_VERIFY_FAILED"), verbose.error)
        XCTAssertFalse(verbose.error.contains(".cc:"), "no BoringSSL source path: \(verbose.error)")

        let insecure = try WebImageCLI.run(["get", "--no-cache", "--insecure", url])
        XCTAssertEqual(insecure.status, 0, insecure.error)
        XCTAssertTrue(insecure.output.hasPrefix("network"), insecure.output)
        XCTAssertEqual(tls.requestCount("/photo.jpg"), 1, "only --insecure got past the handshake")
        try await tls.stop()
    }

    func testARefusedConnectionNamesTheHostAndPort() async throws {
        let url = server.url("/photo.jpg")
        try await server.stop()
        server = try await LoopbackHTTPServer.start()
        let run = try WebImageCLI.run(["get", "--no-cache", "--json", url.absoluteString])
        XCTAssertEqual(run.status, 1)
        let object = try XCTUnwrap(try WebImageCLI.objects(run.output).first)
        XCTAssertEqual(object["error"] as? String, "connection refused by 127.0.0.1:\(try XCTUnwrap(url.port))")
        XCTAssertNil(object["cause"], "the cause only with --verbose")
        let verbose = try WebImageCLI.run(["get", "--no-cache", "--json", "--verbose", url.absoluteString])
        XCTAssertNotNil(try WebImageCLI.objects(verbose.output).first?["cause"] as? String, verbose.output)
    }

    func testARedirectLoopSaysSo() throws {
        server.route("/a.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/b.jpg")]))
        server.route("/b.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/a.jpg")]))
        let run = try WebImageCLI.run(["get", "--no-cache", server.url("/a.jpg").absoluteString])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains(": the redirects lead in a loop\n"), run.error)
        assertPlain(run.error)
    }

    func testTheTimeoutIsSetAndNamed() throws {
        server.route("/stall.jpg", .neverEnding())
        let run = try WebImageCLI.run(["get", "--no-cache", "--timeout", "0.5", server.url("/stall.jpg").absoluteString],
                                      timeout: 10)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains(": no data from the server within 0.5 s\n"), run.error)
        let bad = try WebImageCLI.run(["get", "--timeout", "0", server.url("/photo.jpg").absoluteString])
        XCTAssertEqual(bad.status, 64, bad.error)
    }

    func testAnUnwritableOutputFolderSaysWhy() throws {
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        do {
            try Mount.readOnly(output)
        } catch {
            throw MachineGuard.notPermitted("this test needs to mount a file system (run as root): \(error)")
        }
        addTeardownBlock { try? Mount.unmount(output) }
        let run = try WebImageCLI.run(["get", "--no-cache", "-o", output.path, server.url("/photo.jpg").absoluteString])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains("cannot write \(output.path)/photo.jpg: read-only file system"), run.error)
    }

    func testAMissingFileSaysWhy() throws {
        let path = folder.appendingPathComponent("missing.jpg").path
        let run = try WebImageCLI.run(["get", "--no-cache", path])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains("\(path): cannot read \(path): no such file or directory"), run.error)
    }
}
