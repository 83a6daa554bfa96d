import Logging

extension ServerConfiguration {
    /// What is logged and how soon it is written.
    public struct LogSettings: Sendable, Equatable {
        /// Seconds a log line may wait in memory to be written with others; 0 writes each at once.
        public var logInterval = 0.1
        /// The least level a line needs to be written (imgproxy's `IMGPROXY_LOG_LEVEL`): at `.info`,
        /// the default, one line per image request; at `.warning` or above, none of them, as an
        /// nginx with `access_log off`.
        public var logLevel: Logger.Level = .info
        /// How lines are written (imgproxy's `IMGPROXY_LOG_FORMAT`); nil: as imgproxy chooses,
        /// ``LogFormat/forStandardError``.
        public var logFormat: LogFormat?
        /// Whether each line at or above ``syslogLevel`` is also sent to syslog (imgproxy's
        /// `IMGPROXY_SYSLOG_ENABLE`), as Go's `log/syslog` writes it.
        public var syslogEnabled = false
        /// How the syslog daemon is reached (imgproxy's `IMGPROXY_SYSLOG_NETWORK`); nil: the
        /// local daemon's socket, `/dev/log`, `/var/run/syslog` or `/var/run/log`.
        public var syslogNetwork: SyslogNetwork?
        /// Where the daemon listens on ``syslogNetwork`` (imgproxy's `IMGPROXY_SYSLOG_ADDRESS`):
        /// `HOST:PORT`, or a socket's path; needed with a network, unused without.
        public var syslogAddress = ""
        /// The tag of every syslog line, before the process ID (imgproxy's `IMGPROXY_SYSLOG_TAG`,
        /// whose default is `imgproxy`; here `webimage`, as the OpenTelemetry service name).
        public var syslogTag = "webimage"
        /// The least level a line needs to be sent to syslog, whatever ``logLevel`` writes
        /// (imgproxy's `IMGPROXY_SYSLOG_LEVEL`).
        public var syslogLevel: Logger.Level = .info

        /// The defaults.
        public init() {}
    }
}
