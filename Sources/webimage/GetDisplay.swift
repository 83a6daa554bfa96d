import Foundation
import Locking
import WebImage

/// What `webimage get` prints: a line per URL (text or JSON) on standard output and, when
/// standard error is a terminal, a progress line there that is redrawn as bytes arrive.
final class GetDisplay: Sendable {
    enum Mode: Sendable {
        case text, json, quiet
    }

    private struct State {
        var done = 0
        var received: [Int: ImageLoadingProgress] = [:]
    }

    private let total: Int
    private let mode: Mode
    private let live: Bool
    private let state = Mutex(State())

    init(total: Int, mode: Mode) {
        self.total = total
        self.mode = mode
        live = mode == .text && isatty(STDERR_FILENO) == 1
    }

    /// Bytes arrived for the URL at `index`.
    func progress(_ index: Int, _ progress: ImageLoadingProgress) {
        guard live else { return }
        let line = state.withLock { state -> String in
            state.received[index] = progress
            return statusLine(state)
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// The URL `argument` loaded.
    func loaded(_ argument: String, result: ImageResult, time: Duration, savedTo path: String?) {
        let image = result.image
        switch mode {
        case .quiet: finish(nil)
        case .json:
            var object: [String: Any] = [
                "url": argument, "source": result.source.rawValue, "ms": Self.milliseconds(time),
                "width": image.pixelWidth, "height": image.pixelHeight, "frames": image.frames.count,
            ]
            if let data = result.data { object["bytes"] = data.count }
            if let path { object["file"] = path }
            finish(Self.json(object))
        case .text:
            let size = "\(image.pixelWidth)x\(image.pixelHeight)" + (image.isAnimated ? " \(image.frames.count) frames" : "")
            let source = result.source.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
            finish("\(source) \(Self.milliseconds(time).formatted()) ms  \(size)  \(argument)" + (path.map { " -> \($0)" } ?? ""))
        }
    }

    /// The URL `argument` failed with `error`.
    func failed(_ argument: String, error: any Error, time: Duration) {
        switch mode {
        case .json: finish(Self.json(["url": argument, "error": "\(error)", "ms": Self.milliseconds(time)]))
        case .text, .quiet:
            clearStatus()
            FileHandle.standardError.write(Data("webimage: \(argument): \(error)\n".utf8))
            finish(nil)
        }
    }

    /// Clears the progress line after the last URL.
    func end() { clearStatus() }

    private func finish(_ line: String?) {
        let status = state.withLock { state -> String in
            state.done += 1
            return statusLine(state)
        }
        clearStatus()
        if let line { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        if live && status.isEmpty == false { FileHandle.standardError.write(Data(status.utf8)) }
    }

    private func clearStatus() {
        if live { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// `[#####-----] 3/10  1.2 MiB`: the share of URLs done and the bytes received.
    private func statusLine(_ state: State) -> String {
        guard state.done < total else { return "" }
        let width = 20
        let filled = total == 0 ? width : width * state.done / total
        let bytes = state.received.values.reduce(0) { $0 + $1.receivedBytes }
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)] \(state.done)/\(total)  \(ByteCount.human(bytes))"
    }

    private static func milliseconds(_ time: Duration) -> Int {
        Int(time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000)
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
