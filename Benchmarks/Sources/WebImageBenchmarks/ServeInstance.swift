import Foundation

/// A `webimage serve` process of the same build as this binary (the `webimage` executable
/// beside it), on a free loopback port, its log discarded.
final class ServeInstance {
    /// `webimage` is not beside this binary: `Benchmarks/run` builds both.
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "no webimage executable at \(path) (Benchmarks/run builds it)" }
    }

    /// The process ended before it said where it listens.
    struct NotListening: Error, CustomStringConvertible {
        var description: String { "webimage serve exited before listening" }
    }

    /// `http://127.0.0.1:PORT`.
    let baseURL: String
    private let process = Process()

    /// Starts `webimage serve --bind 127.0.0.1:0 --allow-loopback-sources` with `arguments`
    /// and waits until it listens.
    init(_ arguments: [String]) throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("webimage")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { throw Missing(path: executable.path) }
        let output = Pipe()
        process.executableURL = executable
        process.arguments = ["serve", "--bind", "127.0.0.1:0", "--allow-loopback-sources"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let prefix = "webimage serve: listening on "
        var printed = ""
        while !printed.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw NotListening() }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = printed.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { throw NotListening() }
        baseURL = String(line.dropFirst(prefix.count))
    }

    /// Stops it as a service manager would (SIGTERM) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
