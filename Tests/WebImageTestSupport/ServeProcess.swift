import Foundation

/// `webimage serve`, the built binary, started by a test (on a free loopback port unless the
/// test says otherwise) and waited for until it listens; what it logged can be read at any
/// time. The one launcher of the server tests and the scale-out tests.
public final class ServeProcess {
    /// The running server.
    public let process: ChildProcess
    /// Its base URL, `http://127.0.0.1:PORT`.
    public let baseURL: String

    /// What `webimage serve` prints on standard output once it accepts requests, before its base URL.
    public static let listeningPrefix = "webimage serve: listening on "

    /// Starts `webimage serve --bind 127.0.0.1:0` with `arguments` and waits (up to `timeout`
    /// seconds) until it says where it listens; throws ``ServeProcessError`` with its standard
    /// error when it does not.
    public convenience init(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 30) throws {
        try self.init(launching: ["serve", "--bind", "127.0.0.1:0"] + arguments, environment: environment, timeout: timeout)
    }

    /// Starts the `webimage` binary with exactly `arguments` (`serve` and its options, for a test
    /// of where it binds by default or of its environment variables), in this process's
    /// environment plus `environment` (with `WEBIMAGE_LOG_INTERVAL=0` unless it sets one), in
    /// `directory` (this process's current folder when nil), and waits (up to `timeout` seconds) until it says where it listens; throws
    /// ``ServeProcessError`` with its standard error, having killed it, when it does not.
    public init(launching arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                timeout: Double = 30) throws {
        // Each log line written as it is logged (unless the test says otherwise): a test reads
        // the log right after its responses.
        let process = try ChildProcess(BuiltProducts.executable("webimage"), arguments,
                                       environment: ["WEBIMAGE_LOG_INTERVAL": "0"].merging(environment) { _, given in given },
                                       directory: directory)
        let prefix = Self.listeningPrefix
        _ = process.wait(timeout: timeout) { process.outputLines.contains { $0.hasPrefix(prefix) } || !process.isRunning }
        guard let line = process.outputLines.first(where: { $0.hasPrefix(prefix) }) else {
            process.killAndReap()
            throw ServeProcessError.notListening(process.errorOutput)
        }
        self.process = process
        baseURL = String(line.dropFirst(prefix.count))
    }

    /// `127.0.0.1:PORT`: where it listens, as an upstream list names it.
    public var address: String { String(baseURL.dropFirst("http://".count)) }

    /// The lines it logged (standard error) that contain `text`.
    public func logLines(containing text: String) -> [String] {
        process.errorOutput.split(separator: "\n").filter { $0.contains(text) }.map(String.init)
    }

    /// Where the result of each image request whose logged path contains `fragment` came
    /// from, in order: the `cache=` field of its log line (`made`, `memory`, `disk`, `shared`,
    /// or `-` for an error).
    public func cacheSources(forPathsContaining fragment: String) -> [String] {
        logLines(containing: "request").filter { $0.contains("path=") && $0.contains(fragment) }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("cache=") }.map { String($0.dropFirst("cache=".count)) }
        }
    }
}

/// Why a test's `webimage serve` could not start.
public enum ServeProcessError: Error, CustomStringConvertible {
    /// It did not print where it listens within the timeout; its standard error.
    case notListening(String)

    public var description: String {
        switch self {
        case .notListening(let errors): "webimage serve did not start listening: \(errors)"
        }
    }
}
