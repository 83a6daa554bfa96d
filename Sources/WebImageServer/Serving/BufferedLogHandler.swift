import Logging

/// A swift-log handler writing each message as one line to a ``LogLineBuffer``, in a
/// ``LogFormat`` (by default swift-log's `StreamLogHandler` line,
/// `TIME LEVEL LABEL: KEY=VALUE… [SOURCE] MESSAGE`), the metadata sorted by key.
/// `webimage serve` logs a line per request through it: the line is
/// formatted into one string and copied into memory, and its bytes are written in batches,
/// where `StreamLogHandler` formats the time and writes to unbuffered standard error each time.
/// With a ``syslog`` writer, each line at or above its level is also sent to syslog, the same
/// line, whatever ``logLevel`` writes (imgproxy's syslog hook).
public struct BufferedLogHandler: LogHandler {
    /// Where the lines go.
    public let buffer: LogLineBuffer
    /// The logger's label, after the level on each line.
    public let label: String
    /// The least level written to ``buffer``.
    public var writtenLevel: Logger.Level = .info
    /// Where lines at or above its level are also sent, if anywhere.
    public var syslog: SyslogWriter?
    /// The least level logged: ``writtenLevel``, or the syslog writer's level when lower. Set,
    /// it sets ``writtenLevel`` (a logger's level is the one it writes; syslog keeps its own).
    public var logLevel: Logger.Level {
        get { syslog.map { min(writtenLevel, $0.level) } ?? writtenLevel }
        set { writtenLevel = newValue }
    }
    /// How each line is written.
    public var format: LogFormat = .pretty
    /// Metadata on every line of this handler, under the message's own.
    public var metadata: Logger.Metadata = [:]
    /// Metadata on every line, from the task context (swift-log's metadata provider).
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler for the logger labelled `label`, writing to `buffer`, with the metadata
    /// provider the logging system was bootstrapped with.
    public init(label: String, buffer: LogLineBuffer, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.buffer = buffer
        self.metadataProvider = metadataProvider
    }

    /// Appends the event's line to ``buffer``, in ``format``, when at or above ``writtenLevel``,
    /// and sends it to ``syslog`` when at or above the writer's level.
    public func log(event: LogEvent) {
        let line = format.line(for: event, metadata: effectiveMetadata(event), label: label)
        if event.level >= writtenLevel { buffer.append(line, stamped: format == .pretty) }
        if let syslog, event.level >= syslog.level { syslog.send(line, level: event.level) }
    }

    /// The handler's metadata, then the provider's, then the event's, later ones winning, and
    /// the event's error as `error.message` and `error.type`.
    private func effectiveMetadata(_ event: LogEvent) -> Logger.Metadata {
        let provided = metadataProvider?.get() ?? [:]
        if metadata.isEmpty, provided.isEmpty, event.error == nil {
            return event.metadata ?? [:]
        }
        var merged = metadata
        if !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata {
            merged.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// The handler's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
