import Hummingbird
import Prometheus

/// The responder of the metrics' own listener (imgproxy's `IMGPROXY_PROMETHEUS_BIND`): every
/// `GET` or `HEAD`, whatever its path, is answered with the registry in Prometheus's text
/// format, as imgproxy's metrics server answers; other methods get a 405.
public struct MetricsResponder: HTTPResponder {
    /// What is shown.
    let registry: PrometheusCollectorRegistry

    /// The metrics, or a 405.
    public func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            var refusal = PreparedResponse.text(.methodNotAllowed, "only GET and HEAD are served", head: false)
            refusal.head.headerFields[.allow] = "GET, HEAD"
            return Response(refusal)
        }
        return Response(.uncached(.ok, registry.emitToBuffer(), type: ServiceEndpoints.metricsType, head: request.method == .head))
    }
}
