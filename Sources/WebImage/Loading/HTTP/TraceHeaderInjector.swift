import NIOHTTP1
import Tracing

/// Writes a tracer's fields (W3C `traceparent` and `tracestate` for OpenTelemetry) into the
/// header fields of a download's request, each replacing one of its name.
struct TraceHeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: key, value: value)
    }
}
