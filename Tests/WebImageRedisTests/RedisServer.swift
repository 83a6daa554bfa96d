import Foundation
import WebImageRedis
import WebImageTestSupport
import XCTest

/// A `redis-server` of the test's own: on a free loopback port, with its files in a temporary
/// folder, persisting nothing (`--save ''`, `--appendonly no`). It can be killed and started
/// again on the same port. Without the executable, the test is skipped, saying what to install.
final class RedisServer {
    /// The Debian package that installs the server, named when it is missing.
    static let package = "redis-server"

    /// The port it listens on, the same across restarts.
    private(set) var port = 0
    private let folder: URL
    private var process: ChildProcess?

    /// Starts a server with its files in `folder`.
    init(folder: URL) async throws {
        self.folder = folder
        port = try await LoopbackPort.withFreePort { free in
            port = free
            try await start()
            return free
        }
    }

    deinit { process?.killAndReap() }

    /// A client configuration for this server, with the given retry interval and timeouts.
    func configuration(retryInterval: Duration = .milliseconds(20), commandTimeout: Duration = .milliseconds(250))
        -> RedisConfiguration
    {
        RedisConfiguration(port: port, connectTimeout: .milliseconds(250), commandTimeout: commandTimeout,
                           retryInterval: retryInterval)
    }

    /// Starts the server (again) and waits until it answers `PING`; throws
    /// ``LoopbackPort/Taken`` when it exits instead (its port taken), so that the first start
    /// can try another.
    func start() async throws {
        guard let executable = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
            .first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw MachineGuard.notInstalled("redis-server is not installed (Debian package \(Self.package); scripts/install-deps installs it)") }
        process = try ChildProcess(URL(fileURLWithPath: executable), [
            "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", folder.path, "--logfile", "",
        ])
        let probe = RedisClient(configuration: configuration(retryInterval: .zero))
        let deadline = ContinuousClock.now + .seconds(10)
        var answered = false
        while !answered, process?.isRunning == true, ContinuousClock.now < deadline {
            answered = (try? await probe.ping()) != nil
            if !answered { try await Task.sleep(for: .milliseconds(20)) }
        }
        await probe.close()
        // A server that exited did not answer: whatever did holds the port.
        guard process?.isRunning == true else {
            throw LoopbackPort.Taken(server: "redis-server", output: (process?.output ?? "") + (process?.errorOutput ?? ""))
        }
        guard answered else { throw RedisServerError.notAnswering(process?.errorOutput ?? "") }
    }

    /// Kills the server with SIGKILL, as a crash would.
    func kill() {
        process?.killAndReap()
        process = nil
    }
}

/// Why a test's `redis-server` could not run.
enum RedisServerError: Error, CustomStringConvertible {
    /// It started but did not answer `PING` within 10 seconds; its standard error.
    case notAnswering(String)

    var description: String {
        switch self {
        case .notAnswering(let errors): "redis-server did not answer PING within 10 s: \(errors)"
        }
    }
}
