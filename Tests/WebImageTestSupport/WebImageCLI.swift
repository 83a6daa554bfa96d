import Foundation
import XCTest

/// Runs the built `webimage` binary for the command-line tests and reads what it printed.
public enum WebImageCLI {
    /// The exit status (nil when it was killed), standard output and standard error of
    /// `webimage arguments…`.
    public static func run(_ arguments: [String], timeout: Double = 60) throws -> (status: Int32?, output: String, error: String) {
        try ChildProcess.run(BuiltProducts.executable("webimage"), arguments, timeout: timeout)
    }

    /// `webimage arguments…` run by `/bin/sh` after `shell` (a pipe into it: `printf … |`).
    public static func run(after shell: String, _ arguments: [String]) throws -> (status: Int32?, output: String, error: String) {
        let quoted = ([BuiltProducts.executable("webimage").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\(shell) \(quoted)"])
    }

    /// The JSON objects `get --json` printed, one per line.
    public static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}
