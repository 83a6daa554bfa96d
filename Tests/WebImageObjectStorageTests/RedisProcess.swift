import Foundation
import WebImageTestSupport

/// A `redis-server` on a free loopback port, persisting nothing, for the tests that put Redis
/// above object storage; ready once `redis-cli` gets its `PONG`. Without it, the test is
/// skipped (or fails under `WEBIMAGE_NO_SKIPS=1`), saying what to install.
final class RedisProcess {
    /// `redis://127.0.0.1:PORT/0`, as `--redis` takes it.
    let url: String
    private let process: ChildProcess

    /// Starts a server and waits (up to 10 s) until it answers.
    init() async throws {
        let tools = ["redis-server", "redis-cli"].map { URL(fileURLWithPath: "/usr/bin/\($0)") }
        guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MachineGuard.notInstalled("redis-server is not installed (Debian package redis-server; scripts/install-deps installs it)")
        }
        (process, url) = try await LoopbackPort.withFreePort { port in
            let process = try ChildProcess(tools[0], ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline {
                if try ChildProcess.run(tools[1], ["-p", "\(port)", "ping"], timeout: 5).output.contains("PONG") {
                    return (process, "redis://127.0.0.1:\(port)/0")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            let output = process.output + process.errorOutput
            process.killAndReap()
            throw LoopbackPort.Taken(server: "redis-server", output: output)
        }
    }

    deinit { process.killAndReap() }
}
