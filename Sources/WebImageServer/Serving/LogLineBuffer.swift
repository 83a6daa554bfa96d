import Dispatch
import Foundation
import Locking

/// Lines of a log on their way to a file descriptor (standard error by default), written in
/// batches: a line is appended to memory under a lock, and the lines gathered are written with
/// one `write` when the oldest has waited ``interval``, when they pass ``limit`` bytes, and
/// whenever ``flush()`` is called (`webimage serve` calls it on its way out, after SIGTERM).
/// With an interval of zero each line is written as it is appended.
///
/// A line starts with the local time to the second, as swift-log's `StreamLogHandler` spells
/// it (`2026-11-23T20:18:59+0000`), formatted once a second rather than once a line, unless it
/// is appended unstamped (a JSON line carries its time inside). Lines reach
/// the descriptor whole and in the order they were appended; a failed write drops its batch.
public final class LogLineBuffer: Sendable {
    /// What the lock guards: the lines not yet handed to a flush, and the timestamp last made.
    private struct State {
        var pending: [UInt8] = []
        var flushScheduled = false
        var second = Int.min
        var stamp: [UInt8] = []
    }

    /// Where the lines go.
    public let descriptor: Int32
    /// The longest a line waits in memory before it is written; zero: not at all.
    public let interval: Duration
    /// The bytes gathered at which the line that passes them writes them at once.
    public let limit: Int
    private let state: Mutex<State>
    /// The batch being written, its memory reused; held for the whole write, so batches are
    /// written one at a time and in order.
    private let writing = Mutex<[UInt8]>([])
    /// Runs the flush that follows a first line by ``interval``.
    private let timer = DispatchQueue(label: "WebImageServer.LogLineBuffer", qos: .utility)

    /// A buffer writing to `descriptor` (standard error by default) lines at most `interval`
    /// old, and at once when more than `limit` bytes are waiting.
    public init(descriptor: Int32 = STDERR_FILENO, interval: Duration = .milliseconds(100), limit: Int = 32 << 10) {
        self.descriptor = descriptor
        self.interval = interval
        self.limit = max(1, limit)
        var state = State()
        state.pending.reserveCapacity(self.limit + 1024)
        self.state = Mutex(state)
    }

    /// Appends the current time and a space unless `stamped` is false, then `text` and a line feed.
    public func append(_ text: String, stamped: Bool = true) {
        let now = time(nil)
        var text = text
        let (schedule, full) = text.withUTF8 { utf8 in
            state.withLock { state in
                if stamped {
                    if state.second != now {
                        state.second = now
                        state.stamp = Self.stamp(now)
                    }
                    state.pending.append(contentsOf: state.stamp)
                    state.pending.append(UInt8(ascii: " "))
                }
                state.pending.append(contentsOf: utf8)
                state.pending.append(UInt8(ascii: "\n"))
                let schedule = !state.flushScheduled
                state.flushScheduled = true
                return (schedule, state.pending.count >= limit)
            }
        }
        if full || interval <= .zero {
            flush()
        } else if schedule {
            let (seconds, attoseconds) = interval.components
            let delay = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            timer.asyncAfter(deadline: .now() + .nanoseconds(delay)) { [self] in flush() }
        }
    }

    /// Writes every line appended so far, before returning.
    public func flush() {
        writing.withLock { batch in
            state.withLock { state in
                swap(&state.pending, &batch)
                state.flushScheduled = false
            }
            Self.write(batch, to: descriptor)
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// All of `bytes` written to `descriptor`, retrying partial and interrupted writes; given
    /// up on any other error (a log must not stop the server).
    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// `seconds` since 1970 in local time, `%Y-%m-%dT%H:%M:%S%z`.
    private static func stamp(_ seconds: time_t) -> [UInt8] {
        var seconds = seconds
        var local = tm()
        var text = [CChar](repeating: 0, count: 64)
        guard localtime_r(&seconds, &local) != nil else { return Array("<unknown>".utf8) }
        let count = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return text.prefix(count).map { UInt8(bitPattern: $0) }
    }
}
