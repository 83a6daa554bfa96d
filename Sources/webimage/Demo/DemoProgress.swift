import Foundation
import Locking

/// The demo's progress: a bar redrawn in place on a terminal, a line per step otherwise.
final class DemoProgress: Sendable {
    private let live = isatty(STDOUT_FILENO) == 1
    private let state = Mutex((step: "", done: 0, total: 0))

    /// A step of `total` parts begins.
    func begin(_ step: String, total: Int) {
        state.withLock { $0 = (step, 0, total) }
        if live { draw() }
    }

    /// One part of the current step is done.
    func tick() {
        state.withLock { $0.done += 1 }
        if live { draw() }
    }

    /// The current step is done; `summary` says how it went.
    func end(_ summary: String) {
        let step = state.withLock { $0.step }
        let line = "\(step.padding(toLength: 8, withPad: " ", startingAt: 0)) \(summary)"
        print(live ? "\r\u{1B}[K\(line)" : line)
    }

    private func draw() {
        let (step, done, total) = state.withLock { $0 }
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardOutput.write(Data("\r\u{1B}[K\(step.padding(toLength: 8, withPad: " ", startingAt: 0)) \(bar) \(done)/\(total)".utf8))
    }
}
