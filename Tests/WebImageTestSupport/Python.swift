import Foundation

/// The Python interpreters on this machine that tests run scripts with (Pillow, selenium).
public enum Python {
    /// The first Python that imports `module`: `$WEBIMAGE_PYTHON`, then the virtual environments
    /// `scripts/test` and `Benchmarks/run` create (`.build/venv`, `.build/bench-venv`), then
    /// `python3` on the PATH; nil when none does.
    public static func interpreter(importing module: String) -> URL? {
        var candidates: [URL] = []
        if let chosen = ProcessInfo.processInfo.environment["WEBIMAGE_PYTHON"] {
            candidates.append(URL(fileURLWithPath: chosen))
        }
        candidates += [".build/venv/bin/python", ".build/bench-venv/bin/python"].map {
            Fixtures.packageRoot.appendingPathComponent($0)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        candidates += path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate.path)
                && (try? ChildProcess.run(candidate, ["-c", "import \(module)"], timeout: 30))?.status == 0
        }
    }
}
