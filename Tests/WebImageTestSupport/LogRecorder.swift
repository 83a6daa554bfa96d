import Locking
import Logging

/// Keeps every message logged through its ``logger``, so that a test can check what was logged.
public final class LogRecorder: Sendable {
    private let records = Mutex<[(level: Logger.Level, text: String)]>([])

    /// A recorder with nothing logged yet.
    public init() {}

    /// A logger, at every level, whose messages land here.
    public var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    /// The messages logged at `level`, each followed by its metadata as `key=value`.
    public func messages(at level: Logger.Level) -> [String] {
        records.withLock { $0.filter { $0.level == level }.map(\.text) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).merging(metadata) { event, _ in event }
                .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let text = ([event.message.description] + fields).joined(separator: " ")
            recorder.records.withLock { $0.append((event.level, text)) }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
    }
}
