#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import NIOPosix
import WebImageTestSupport
import XCTest

/// nginx with the configuration `deploy/render-nginx-conf` makes of `deploy/nginx.conf.template`,
/// in front of the given instances, on a free loopback port, with its cache, pid, logs and
/// temporary files in a folder of the test's. Without the executable, the test is skipped,
/// saying what to install.
final class NginxFront {
    /// The Debian package that installs nginx, named when it is missing.
    static let package = "nginx-light"
    /// The repository's `deploy/` folder.
    static let deployFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WebImageRedisTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("deploy", isDirectory: true)

    /// Its base URL, `http://127.0.0.1:PORT`.
    let baseURL: String
    private let process: ChildProcess

    /// Renders the configuration for `upstreams` (`HOST:PORT` each) into `folder`, starts nginx
    /// in the foreground and waits (up to 10 s) until it answers.
    init(upstreams: [String], folder: URL) async throws {
        guard let executable = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
            .first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw MachineGuard.notInstalled("nginx is not installed (Debian package \(Self.package); scripts/install-deps installs it)") }
        let cache = folder.appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let started = try await LoopbackPort.withFreePort { port in
            try await Self.launch(URL(fileURLWithPath: executable), on: port, upstreams: upstreams, cache: cache, folder: folder)
        }
        baseURL = started.baseURL
        process = started.process
    }

    /// Renders the configuration for `port` into `folder`, starts nginx in the foreground and
    /// waits (up to 10 s) until it answers: its base URL and process. Throws
    /// ``LoopbackPort/Taken`` when nginx exits first (its port taken), so that another is tried.
    private static func launch(_ executable: URL, on port: Int, upstreams: [String], cache: URL, folder: URL) async throws
        -> (baseURL: String, process: ChildProcess)
    {
        // Started as root, nginx runs its workers as nobody, who could not write the test's folder.
        let user = getuid() == 0 ? ["--user", "root"] : []
        let rendered = try ChildProcess.run(
            deployFolder.appendingPathComponent("render-nginx-conf"),
            ["--listen", "127.0.0.1:\(port)", "--cache-dir", cache.path, "--run-dir", folder.path]
                + upstreams.flatMap { ["--upstream", $0] } + user)
        guard rendered.status == 0 else { throw NginxFrontError.notRendered(rendered.error) }
        let configuration = folder.appendingPathComponent("nginx.conf")
        try Data(rendered.output.utf8).write(to: configuration)
        let errorLog = folder.appendingPathComponent("error.log")
        let process = try ChildProcess(executable, [
            "-p", folder.path, "-e", errorLog.path, "-c", configuration.path, "-g", "daemon off;",
        ])
        let logged = { process.errorOutput + ((try? String(contentsOf: errorLog, encoding: .utf8)) ?? "") }
        let deadline = ContinuousClock.now + .seconds(10)
        while !(await answers(port)) {
            guard process.isRunning else { throw LoopbackPort.Taken(server: "nginx", output: logged()) }
            guard ContinuousClock.now < deadline else {
                stop(process)
                throw NginxFrontError.notAnswering(logged())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return ("http://127.0.0.1:\(port)", process)
    }

    deinit { stop() }

    /// Stops nginx as its service manager would (SIGQUIT: workers finish, then exit) and
    /// waits for it, so that no worker outlives the test.
    func stop() { Self.stop(process) }

    /// See ``stop()``.
    private static func stop(_ process: ChildProcess) {
        guard process.isRunning else { return }
        process.send(SIGQUIT)
        if process.waitForExit(timeout: 10) == nil { process.killAndReap() }
    }

    /// Whether something accepts connections on loopback `port`.
    private static func answers(_ port: Int) async -> Bool {
        guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        else { return false }
        try? await channel.close()
        return true
    }
}

/// Why a test's nginx could not run.
enum NginxFrontError: Error, CustomStringConvertible {
    /// `deploy/render-nginx-conf` failed; its standard error.
    case notRendered(String)
    /// nginx did not accept connections within 10 seconds; what it logged.
    case notAnswering(String)

    var description: String {
        switch self {
        case .notRendered(let errors): "deploy/render-nginx-conf failed: \(errors)"
        case .notAnswering(let errors): "nginx did not start: \(errors)"
        }
    }
}
