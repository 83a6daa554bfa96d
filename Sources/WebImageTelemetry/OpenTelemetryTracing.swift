import Foundation
import OTel
import ServiceLifecycle
import Tracing
import WebImageServer

/// The OpenTelemetry tracer of `webimage serve --open-telemetry` (imgproxy's
/// `IMGPROXY_OPEN_TELEMETRY_ENABLE`): swift-otel's, exporting the server's spans in batches over
/// OTLP/HTTP to the collector its ``ServerConfiguration/TelemetrySettings`` name, and its
/// service, which ``ImageServer`` runs beside its listeners (``ImageServer/Extensions``) so that
/// the last spans are sent as it stops. Made without touching the process's tracing system, so
/// servers in one process trace apart. swift-otel also reads the `OTEL_*` variables the
/// OpenTelemetry specification names (`OTEL_BSP_SCHEDULE_DELAY`, `OTEL_EXPORTER_OTLP_HEADERS`…),
/// over these settings.
public struct OpenTelemetryTracing: Sendable {
    /// What the server's spans are made by.
    public let tracer: any Tracer
    /// The exporter and its batches, to run beside the server.
    public let service: any Service

    /// The tracer `settings` describe; throws ``ConfigurationError`` when swift-otel cannot
    /// make it (an exporter variable of the environment it refuses).
    public init(_ settings: ServerConfiguration.TelemetrySettings) throws(ConfigurationError) {
        var configuration = OTel.Configuration.webImage(settings)
        configuration.traces.enabled = true
        configuration.traces.otlpExporter.send(to: "/v1/traces", as: settings)
        do {
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            tracer = backend.factory
            service = backend.service
        } catch {
            throw ConfigurationError(source: "--open-telemetry", reason: "cannot start OpenTelemetry's exporter: \(error)")
        }
    }
}
