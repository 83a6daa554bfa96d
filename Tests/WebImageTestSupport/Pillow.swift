import Foundation
import XCTest

/// Pillow, run by a Python interpreter found on this machine, for tests that check what we
/// write against what Pillow reads.
public enum Pillow {
    /// A Python that imports PIL: `$WEBIMAGE_PYTHON`, then the virtual environments CI and
    /// `Benchmarks/run` create (`.build/venv`, `.build/bench-venv`), then `python3` on the PATH.
    public static let python: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var candidates: [URL] = []
        if let chosen = ProcessInfo.processInfo.environment["WEBIMAGE_PYTHON"] {
            candidates.append(URL(fileURLWithPath: chosen))
        }
        candidates += [".build/venv/bin/python", ".build/bench-venv/bin/python"].map {
            packageRoot.appendingPathComponent($0)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        candidates += path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate.path)
                && (try? ChildProcess.run(candidate, ["-c", "import PIL"], timeout: 30))?.status == 0
        }
    }()

    /// Runs the Python `script` with `arguments` (in `sys.argv[1:]`) and returns its standard
    /// output; skips the test, saying why, when no Python with Pillow is installed, and fails
    /// with Python's error output when the script fails.
    public static func run(_ script: String, _ arguments: [String] = []) throws -> String {
        guard let python else {
            throw XCTSkip("Pillow is not installed: set WEBIMAGE_PYTHON to a Python that imports PIL, "
                + "or create .build/venv with `python3 -m venv .build/venv && .build/venv/bin/pip install pillow`")
        }
        let result = try ChildProcess.run(python, ["-c", script] + arguments, timeout: 120)
        guard result.status == 0 else {
            throw PillowError(message: "Python exited with \(result.status.map(String.init) ?? "a signal"): \(result.error)")
        }
        return result.output
    }
}

/// A Pillow script that failed, with what it printed to standard error.
public struct PillowError: Error, CustomStringConvertible {
    /// Python's exit status and error output.
    public let message: String
    public var description: String { message }
}
