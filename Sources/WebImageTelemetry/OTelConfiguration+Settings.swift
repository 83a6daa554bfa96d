import OTel
import WebImageServer

extension OTel.Configuration {
    /// swift-otel's configuration for `settings` with every signal off, for one backend to turn
    /// its own on: the service's name, and the trace context as the only propagator.
    static func webImage(_ settings: ServerConfiguration.TelemetrySettings) -> OTel.Configuration {
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.traces.enabled = false
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.propagators = [.traceContext]
        return configuration
    }
}

extension OTel.Configuration.OTLPExporterConfiguration {
    /// Sends to the collector of `settings` at its base URL's `path` (`/v1/traces`), in its
    /// protocol, within its timeout: `OTEL_EXPORTER_OTLP_ENDPOINT` is a base URL.
    mutating func send(to path: String, as settings: ServerConfiguration.TelemetrySettings) {
        let base = settings.endpoint.hasSuffix("/") ? String(settings.endpoint.dropLast()) : settings.endpoint
        endpoint = base + path
        self.protocol = settings.otlpProtocol == .httpJSON ? .httpJSON : .httpProtobuf
        timeout = .milliseconds(Int64((settings.exportTimeout * 1000).rounded()))
    }
}
