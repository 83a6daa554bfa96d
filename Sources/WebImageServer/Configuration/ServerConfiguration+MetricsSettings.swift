extension ServerConfiguration {
    /// How the server's metrics are named and where Prometheus scrapes them.
    public struct MetricsSettings: Sendable, Equatable {
        /// The address of a listener of its own that answers every path with the metrics
        /// (imgproxy's `IMGPROXY_PROMETHEUS_BIND`); the main port's `/metrics` is then a 404, so
        /// the metrics need not face the internet. nil: `/metrics` on the main port.
        public var prometheusBind: ListenAddress?
        /// What every metric name starts with, before an `_` (imgproxy's
        /// `IMGPROXY_PROMETHEUS_NAMESPACE`): `webimage_requests_total` by default, `imgproxy_requests_total`
        /// for dashboards made for imgproxy with that namespace.
        public var namespace = "webimage"

        /// The defaults.
        public init() {}
    }

    /// A host and port to listen on, given as Go's `net.Listen` reads them (`HOST:PORT`,
    /// `[IPV6]:PORT`, or `:PORT` for every interface).
    public struct ListenAddress: Sendable, Equatable {
        /// The address, `0.0.0.0` for every interface.
        public var host: String
        /// The port; 0 lets the system choose one.
        public var port: Int

        /// The address `host` and `port`.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }
}
