import HTTPTypes
import Tracing

/// Reads a tracer's fields (W3C `traceparent` and `tracestate` for OpenTelemetry) from a
/// client's request, for `--open-telemetry-propagate-external`.
struct TraceFieldExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}
