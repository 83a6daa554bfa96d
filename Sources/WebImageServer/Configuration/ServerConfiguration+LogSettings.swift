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

        /// The defaults.
        public init() {}
    }
}
