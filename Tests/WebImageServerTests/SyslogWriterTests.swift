import Foundation
import Logging
import WebImageServer
import WebImageTestSupport
import XCTest

/// `--syslog`: lines at or above `--syslog-level` reach a real syslog socket as Go's
/// `log/syslog` (imgproxy's) writes them, with the severity imgproxy's hook gives each level;
/// lines below it are not sent, and a daemon that cannot be reached stops the start.
final class SyslogWriterTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder(self)
    }

    /// A logger writing through a ``BufferedLogHandler`` at info to a buffer nobody reads, with `syslog`.
    private func logger(_ syslog: SyslogWriter) throws -> Logger {
        let sink = open("/dev/null", O_WRONLY)
        addTeardownBlock { close(sink) }
        var handler = BufferedLogHandler(label: "webimage.serve", buffer: LogLineBuffer(descriptor: sink, interval: .zero))
        handler.logLevel = .info
        handler.format = .structured
        handler.syslog = syslog
        return Logger(label: "webimage.serve") { _ in handler }
    }

    func testLinesAtOrAboveTheLevelReachAUnixDatagramSocketInTheLocalForm() throws {
        let path = folder.appending("log.sock").path
        let daemon = try SyslogReceiver(unixPath: path)
        let syslog = try SyslogWriter(network: .unixgram, address: path, tag: "webimage", level: .warning)
        let log = try logger(syslog)
        log.info("request", metadata: ["status": "200"])
        log.warning("slow", metadata: ["ms": "1200"])
        log.error("down")
        syslog.flush()
        let pid = getpid()
        let warning = try XCTUnwrap(daemon.receive())
        XCTAssertNotNil(warning.range(of: #"^<4>[A-Z][a-z]{2} [ 1-3][0-9] \d\d:\d\d:\d\d webimage\[\#(pid)\]: time=\S+ level=WARNING msg=slow ms=1200\n$"#,
                                      options: .regularExpression), warning)
        let error = try XCTUnwrap(daemon.receive())
        XCTAssertNotNil(error.range(of: #"^<3>[A-Z][a-z]{2} [ 1-3][0-9] \d\d:\d\d:\d\d webimage\[\#(pid)\]: time=\S+ level=ERROR msg=down\n$"#,
                                    options: .regularExpression), error)
        XCTAssertNil(daemon.receive(within: .milliseconds(300)), "the info line is below --syslog-level")
    }

    func testUDPOnLoopbackGetsTheNetworkFormWithTheHostName() throws {
        let daemon = try SyslogReceiver()
        let syslog = try SyslogWriter(network: .udp, address: "127.0.0.1:\(daemon.port)", tag: "edge", level: .info)
        let log = try logger(syslog)
        log.debug("unseen")
        log.info("request", metadata: ["status": "200"])
        syslog.flush()
        var name = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(gethostname(&name, 255), 0)
        let line = try XCTUnwrap(daemon.receive())
        let pattern = #"^<6>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d) "# + NSRegularExpression.escapedPattern(for: String(cString: name))
            + #" edge\[\#(getpid())\]: time=\S+ level=INFO msg=request status=200\n$"#
        XCTAssertNotNil(line.range(of: pattern, options: .regularExpression), line)
        XCTAssertNil(daemon.receive(within: .milliseconds(300)), "debug is below the level")
    }

    /// A daemon that stops reading fills its socket, and the writer's queue after it: lines are
    /// dropped then, and logging goes on at once.
    func testADaemonThatDoesNotReadNeverHoldsTheLogger() throws {
        let path = folder.appending("stuck.sock").path
        let daemon = try SyslogReceiver(unixPath: path)
        let syslog = try SyslogWriter(network: .unixgram, address: path, tag: "webimage", level: .info)
        let log = try logger(syslog)
        let started = ContinuousClock.now
        for index in 0..<(4 * SyslogWriter.queueLimit) { log.info("request", metadata: ["n": "\(index)", "pad": "\(String(repeating: "x", count: 512))"]) }
        XCTAssertLessThan(started.duration(to: .now), .seconds(1), "each line is queued or dropped, never waited for")
        XCTAssertNotNil(daemon.receive(), "the first lines were sent")
    }

    func testADaemonThatCannotBeReachedIsAStartError() throws {
        let missing = folder.appending("none.sock").path
        XCTAssertThrowsError(try SyslogWriter(network: .unixgram, address: missing, tag: "webimage", level: .info)) { error in
            XCTAssertTrue("\(error)".contains(missing), "\(error)")
        }
        XCTAssertThrowsError(try SyslogWriter(network: .udp, address: "", tag: "webimage", level: .info)) { error in
            XCTAssertEqual(error as? SyslogError, .addressMissing(.udp))
        }
        let result = try WebImageCLI.run(["serve", "--bind", "127.0.0.1:0", "--syslog", "--syslog-network", "unixgram",
                                          "--syslog-address", missing])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.error.contains("unable to connect to syslog daemon at \(missing)"), result.error)
    }

    /// `webimage serve` itself: a request's line reaches the daemon, tagged `webimage` by default.
    func testServeSendsARequestLineToTheDaemon() throws {
        let path = folder.appending("serve.sock").path
        let daemon = try SyslogReceiver(unixPath: path)
        let server = try ServeProcess(["--cache-dir", folder.appending("cache").path], environment: [
            "IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_NETWORK": "unixgram", "IMGPROXY_SYSLOG_ADDRESS": path,
        ])
        defer { server.process.killAndReap() }
        let connection = try RawHTTPConnection(port: try XCTUnwrap(URLComponents(string: server.baseURL)?.port))
        try connection.send("GET /insecure/rs:fit:8:8/plain/local:///missing.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(String(decoding: connection.receive(), as: UTF8.self).hasPrefix("HTTP/1.1 "))
        var lines: [String] = []
        while let line = daemon.receive() {
            lines.append(line)
            if line.contains("msg=request") { break }
        }
        let request = try XCTUnwrap(lines.first { $0.contains("msg=request") }, "\(lines)")
        XCTAssertTrue(request.hasPrefix("<6>") || request.hasPrefix("<4>"), request)
        XCTAssertTrue(request.contains(" webimage[\(server.process.processIdentifier)]: "), request)
    }
}
