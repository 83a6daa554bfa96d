#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A process a test starts, whose standard output and error go to files the test can read at
/// any time, and whose every wait is bounded so a test never hangs on it.
///
/// Each has a cache home (`XDG_CACHE_HOME`) of its own, deleted with it, unless the test names
/// one: `webimage` keeps its default disk caches there, and under the shared `~/.cache` a later
/// test, run or checkout on the machine would find them (a loopback port comes round again, with
/// other bytes behind the same URL).
public final class ChildProcess {
    private let process = Process()
    private let outputFile: URL
    private let errorFile: URL
    private let cacheHome: URL

    /// Starts `executable` with `arguments`, in this process's environment plus its own cache
    /// home plus `environment`, in `directory` (this process's current folder when nil).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                directory: URL? = nil) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-child-\(UUID().uuidString)")
        outputFile = base.appendingPathExtension("out")
        errorFile = base.appendingPathExtension("err")
        cacheHome = base.appendingPathExtension("cache")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment
            .merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 }
            .merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning { killAndReap() }
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
        try? FileManager.default.removeItem(at: cacheHome)
    }

    /// Runs `executable` to its end (killed after `timeout` seconds): exit status (nil when it
    /// had to be killed or died of a signal), standard output and standard error.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           timeout: Double = 60) throws -> (status: Int32?, output: String, error: String)
    {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = child.waitForExit(timeout: timeout)
        return (status, child.output, child.errorOutput)
    }

    /// Whether the process has not ended yet.
    public var isRunning: Bool { process.isRunning }

    /// The child's process ID.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Everything written to standard output so far.
    public var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// Everything written to standard error so far.
    public var errorOutput: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// The complete lines written to standard output so far (a last line without its newline
    /// is left out: it may still be being written).
    public var outputLines: [String] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }

    /// Waits up to `timeout` seconds for `condition`, polling; false when it never held.
    public func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date() + timeout
        while !condition() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Waits up to `timeout` seconds for the process to exit and returns its exit status; when
    /// it is still running then, or was ended by a signal, kills it and returns nil.
    public func waitForExit(timeout: Double) -> Int32? {
        guard wait(timeout: timeout, until: { !process.isRunning }) else {
            killAndReap()
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Sends `signal` (SIGTERM, SIGINT) and returns at once, for a test of how the process stops.
    public func send(_ signal: Int32) {
        _ = kill(process.processIdentifier, signal)
    }

    /// Sends SIGKILL and waits (up to 10 seconds) for the process to be gone.
    public func killAndReap() {
        _ = kill(process.processIdentifier, SIGKILL)
        _ = wait(timeout: 10) { !process.isRunning }
    }
}
