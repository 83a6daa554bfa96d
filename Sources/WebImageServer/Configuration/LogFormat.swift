import Foundation
import Logging

/// How a log line is written, imgproxy's `IMGPROXY_LOG_FORMAT`: `pretty` for a person at a
/// terminal, `structured` (`key=value` pairs, logfmt) and `json` or `gcp` (one JSON object a
/// line, Google Cloud Logging's field names) for a log collector.
///
/// The structured and JSON lines carry imgproxy's keys for what imgproxy logs too — `time`
/// (RFC 3339, UTC), `level` (`DEBUG`, `INFO`, `WARNING`, `ERROR`, `CRITICAL`; GCP's `severity`),
/// `msg` (GCP's `message`) — then the event's metadata, sorted by key.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// swift-log's `StreamLogHandler` line: `TIME LEVEL LABEL: KEY=VALUE… [SOURCE] MESSAGE`.
    case pretty
    /// `time=… level=INFO msg=… KEY=VALUE…`, a value quoted when it holds a space, `=`, `"`,
    /// `\` or a control character.
    case structured
    /// `{"time":…,"level":"INFO","msg":…,KEY:VALUE…}`.
    case json
    /// JSON with Google Cloud Logging's keys: `severity` and `message`.
    case gcp

    /// The format a server uses when none is set, as imgproxy chooses it: pretty when standard
    /// error is a terminal, structured otherwise.
    public static var forStandardError: LogFormat {
        isatty(STDERR_FILENO) == 1 ? .pretty : .structured
    }
}
