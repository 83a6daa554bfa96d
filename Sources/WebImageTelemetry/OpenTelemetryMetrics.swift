import CoreMetrics
import Foundation
import OTel
import ServiceLifecycle
import WebImageServer

/// The OpenTelemetry metrics of `webimage serve --open-telemetry --open-telemetry-enable-metrics`
/// (imgproxy's `IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS`): swift-otel's swift-metrics factory,
/// whose counters, gauges and histograms its service exports every
/// ``ServerConfiguration/TelemetrySettings/metricExportInterval`` over OTLP/HTTP to the same
/// collector as the spans, at `/v1/metrics`, and once more as it stops. The server makes its
/// counters through it beside Prometheus's (``ImageServer/Extensions/exportedMetricsFactory``),
/// so `/metrics` keeps every name.
public struct OpenTelemetryMetrics: Sendable {
    /// What the server's counters are also made by.
    public let factory: any MetricsFactory
    /// The exporter, to run beside the server.
    public let service: any Service

    /// The metrics `settings` describe; throws ``ConfigurationError`` when swift-otel cannot
    /// make them (an exporter variable of the environment it refuses).
    public init(_ settings: ServerConfiguration.TelemetrySettings) throws(ConfigurationError) {
        var configuration = OTel.Configuration.webImage(settings)
        configuration.metrics.enabled = true
        configuration.metrics.otlpExporter.send(to: "/v1/metrics", as: settings)
        configuration.metrics.exportInterval = .milliseconds(Int64((settings.metricExportInterval * 1000).rounded()))
        do {
            let backend = try OTel.makeMetricsBackend(configuration: configuration)
            factory = backend.factory
            service = backend.service
        } catch {
            throw ConfigurationError(source: "--open-telemetry-enable-metrics", reason: "cannot start OpenTelemetry's metrics exporter: \(error)")
        }
    }
}
