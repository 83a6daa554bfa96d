extension ServerConfiguration {
    /// How requests are traced: OpenTelemetry spans sent over OTLP/HTTP (imgproxy's
    /// `IMGPROXY_OPEN_TELEMETRY_*` and the OpenTelemetry SDK's `OTEL_*` variables). The server
    /// makes the spans through the tracer it is given (``ImageServer/Extensions/tracer``);
    /// `WebImageTelemetry` makes that tracer from these settings.
    public struct TelemetrySettings: Sendable, Equatable {
        /// Whether requests are traced (imgproxy's `IMGPROXY_OPEN_TELEMETRY_ENABLE`).
        public var enabled = false
        /// The collector's base URL, `/v1/traces` added (`OTEL_EXPORTER_OTLP_ENDPOINT`).
        public var endpoint = "http://localhost:4318"
        /// How spans are encoded (`OTEL_EXPORTER_OTLP_PROTOCOL`).
        public var otlpProtocol = OTLPProtocol.httpProtobuf
        /// Seconds an export may take (`OTEL_EXPORTER_OTLP_TIMEOUT`, in milliseconds there).
        public var exportTimeout = 10.0
        /// The `service.name` of every span (`OTEL_SERVICE_NAME`).
        public var serviceName = "webimage"
        /// Whether a client's `traceparent` is continued rather than a trace started for each
        /// request (imgproxy's `IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`, off by default: a
        /// client on the internet does not choose the traces).
        public var propagateExternal = false
        /// Whether the server's metrics are exported over OTLP too, to the collector's
        /// `/v1/metrics`, while tracing is on (imgproxy's `IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS`).
        public var enableMetrics = false
        /// Seconds between two metric exports (`OTEL_METRIC_EXPORT_INTERVAL`, in milliseconds there).
        public var metricExportInterval = 60.0

        /// Whether metrics are exported: tracing on and ``enableMetrics``.
        public var exportsMetrics: Bool { enabled && enableMetrics }

        /// The defaults.
        public init() {}
    }

    /// An OTLP encoding over HTTP; gRPC's exporter is not built here.
    public enum OTLPProtocol: String, Sendable, CaseIterable {
        /// Protocol buffers, `application/x-protobuf`.
        case httpProtobuf = "http/protobuf"
        /// Protocol buffers' JSON mapping, `application/json`.
        case httpJSON = "http/json"
    }
}
