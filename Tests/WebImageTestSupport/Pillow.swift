import Foundation
import WebImage
import XCTest

/// Pillow, run by a Python interpreter found on this machine, for tests that check what we
/// write against what Pillow reads.
public enum Pillow {
    /// A Python that imports PIL, found as ``Python/interpreter(importing:)`` says.
    public static let python: URL? = Python.interpreter(importing: "PIL")

    /// Runs the Python `script` with `arguments` (in `sys.argv[1:]`) and returns its standard
    /// output; skips the test, saying why, when no Python with Pillow is installed, and fails
    /// with Python's error output when the script fails.
    public static func run(_ script: String, _ arguments: [String] = []) throws -> String {
        guard let python else {
            throw MachineGuard.notInstalled("Pillow is not installed: set WEBIMAGE_PYTHON to a Python that imports PIL, "
                + "or create .build/venv with `python3 -m venv .build/venv && .build/venv/bin/pip install pillow`")
        }
        let result = try ChildProcess.run(python, ["-c", script] + arguments, timeout: 120)
        guard result.status == 0 else {
            throw PillowError(message: "Python exited with \(result.status.map(String.init) ?? "a signal"): \(result.error)")
        }
        return result.output
    }
}

extension Pillow {
    /// Frame `index` of the image file at `url` as Pillow composites it, converted to RGBA8;
    /// skips the test when Pillow is not installed (see ``run(_:_:)``).
    public static func frame(_ index: Int, of url: URL) throws -> PixelBuffer {
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            im.seek(int(sys.argv[2]))
            rgba = im.convert("RGBA")
            print(rgba.size[0], rgba.size[1], rgba.tobytes().hex())
            """
        let fields = try run(script, [url.path, String(index)]).split(separator: " ")
        guard fields.count == 3, let width = Int(fields[0]), let height = Int(fields[1]) else {
            throw PillowError(message: "unexpected output for \(url.lastPathComponent)")
        }
        let hex = Array(fields[2].utf8.prefix { $0 != UInt8(ascii: "\n") })
        let bytes = stride(from: 0, to: hex.count - 1, by: 2).map { UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16)! }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }
}

/// A Pillow script that failed, with what it printed to standard error.
public struct PillowError: Error, CustomStringConvertible {
    /// Python's exit status and error output.
    public let message: String
    public var description: String { message }
}
