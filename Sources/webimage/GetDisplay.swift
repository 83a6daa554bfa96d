import Foundation
import Locking
import WebImage

/// What `webimage get` prints: a line per URL (text or JSON) on standard output, errors on
/// standard error, and, when standard error is a terminal in text mode, a progress line there
/// that is redrawn as bytes arrive.
///
/// Every write happens under one lock, and the progress line is cleared before anything else is
/// written and drawn again after it: a result line never lands on a half-drawn bar, even when
/// standard output and standard error are the same terminal. In text mode the run ends with a
/// summary line on standard output, after the result lines it sums up (also when it is not a
/// terminal), so standard error holds only errors and warnings; `--quiet` and `--json` print
/// none (JSON keeps one object per URL).
final class GetDisplay: Sendable {
    enum Mode: Sendable {
        case text, json, quiet
    }

    private struct State {
        var done = 0
        var received: [Int: ImageLoadingProgress] = [:]
        var summary = GetSummary()
        /// Whether a progress line is on screen now.
        var barShown = false
    }

    private let total: Int
    private let mode: Mode
    private let verbose: Bool
    private let live: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    init(total: Int, mode: Mode, verbose: Bool) {
        self.total = total
        self.mode = mode
        self.verbose = verbose
        live = mode == .text && isatty(STDERR_FILENO) == 1
    }

    /// Bytes arrived for the URL at `index`.
    func progress(_ index: Int, _ progress: ImageLoadingProgress) {
        state.withLock { state in
            state.received[index] = progress
            if live { drawBar(&state) }
        }
    }

    /// The URL `argument` loaded.
    func loaded(_ argument: String, result: ImageResult, time: Duration, savedTo path: String?) {
        let image = result.image
        let line: String?
        switch mode {
        case .quiet: line = nil
        case .json:
            var object: [String: Any] = [
                "url": argument, "source": result.source.rawValue, "ms": Self.milliseconds(time),
                "width": image.pixelWidth, "height": image.pixelHeight, "frames": image.frames.count,
            ]
            if let data = result.data { object["bytes"] = data.count }
            if let path { object["file"] = path }
            line = Self.json(object)
        case .text:
            let size = "\(image.pixelWidth)x\(image.pixelHeight)" + (image.isAnimated ? " \(image.frames.count) frames" : "")
            let source = result.source.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
            line = "\(source) \(Self.milliseconds(time).formatted()) ms  \(size)  \(argument)" + (path.map { " -> \($0)" } ?? "")
        }
        finish(output: line, error: nil) { $0.loaded(from: result.source) }
    }

    /// The URL `argument` failed with `error`.
    func failed(_ argument: String, error: any Error, time: Duration) {
        let cause = verbose ? (error as? WebImageError)?.underlyingCause : nil
        switch mode {
        case .json:
            var object: [String: Any] = ["url": argument, "error": "\(error)", "ms": Self.milliseconds(time)]
            if let cause { object["cause"] = cause }
            finish(output: Self.json(object), error: nil) { $0.failedOne() }
        case .text, .quiet:
            let message = "webimage: \(argument): \(error)" + (cause.map { "\n  cause: \($0)" } ?? "")
            finish(output: nil, error: message) { $0.failedOne() }
        }
    }

    /// Clears the progress line after the last URL and, in text mode, prints the summary.
    func end() {
        state.withLock { state in
            clearBar(&state)
            guard mode == .text else { return }
            let bytes = state.received.values.reduce(0) { $0 + $1.receivedBytes }
            Self.write(state.summary.line(receivedBytes: bytes, time: ContinuousClock.now - start) + "\n",
                       to: .standardOutput)
        }
    }

    /// Counts one finished URL, writes its lines with the bar cleared, and draws the bar again.
    private func finish(output: String?, error: String?, count: (inout GetSummary) -> Void) {
        state.withLock { state in
            state.done += 1
            count(&state.summary)
            clearBar(&state)
            if let output { Self.write(output + "\n", to: .standardOutput) }
            if let error { Self.write(error + "\n", to: .standardError) }
            if live { drawBar(&state) }
        }
    }

    private func drawBar(_ state: inout State) {
        guard state.done < total else { return clearBar(&state) }
        Self.write("\r\u{1B}[K" + statusLine(state), to: .standardError)
        state.barShown = true
    }

    private func clearBar(_ state: inout State) {
        guard state.barShown else { return }
        Self.write("\r\u{1B}[K", to: .standardError)
        state.barShown = false
    }

    /// `[#####-----] 3/10  1.2 MiB`: the share of URLs done and the bytes received.
    private func statusLine(_ state: State) -> String {
        let width = 20
        let filled = total == 0 ? width : width * state.done / total
        let bytes = state.received.values.reduce(0) { $0 + $1.receivedBytes }
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)] \(state.done)/\(total)  \(ByteCount.human(bytes))"
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }

    private static func milliseconds(_ time: Duration) -> Int {
        Int(time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000)
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
