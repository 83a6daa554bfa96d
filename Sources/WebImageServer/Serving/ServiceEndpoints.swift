import Hummingbird
import Prometheus

/// The server's own endpoints beside images: `/health` (200 while it runs; also at the
/// configured health check path, and at thumbor's `/healthcheck` while thumbor URLs are
/// answered) and `/metrics` (the
/// registry in Prometheus's text format; 404 without one). Neither waits for anything, so both
/// are answered where the request is read, whatever image work is under way.
struct ServiceEndpoints: Sendable {
    /// The registry `/metrics` shows; nil: `/metrics` is a 404.
    let metricsRegistry: PrometheusCollectorRegistry?
    /// A second path answered as `/health` is (imgproxy's `IMGPROXY_HEALTH_CHECK_PATH`), or empty.
    let healthCheckPath: String
    /// Whether thumbor's `/healthcheck` (and `/healthcheck/`) is answered: thumbor answers it
    /// `WORKING`, and no thumbor image URL starts so.
    let answersThumborHealthcheck: Bool

    /// The answer to `path` (after the path prefix), or nil when it is no service endpoint.
    func answer(to path: String, head: Bool) -> PreparedResponse? {
        // Compared as bytes: every image request passes here, and its path is long.
        let bytes = path.utf8
        let route = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex)]
        if route.elementsEqual("/health".utf8) || (!healthCheckPath.isEmpty && route.elementsEqual(healthCheckPath.utf8)) {
            return .text(.ok, "webimage serve is running", head: head)
        }
        if answersThumborHealthcheck, route.elementsEqual("/healthcheck".utf8) || route.elementsEqual("/healthcheck/".utf8) {
            return .text(.ok, "WORKING", head: head)
        }
        guard route.elementsEqual("/metrics".utf8) else { return nil }
        guard let metricsRegistry else { return .text(.notFound, "metrics are not enabled", head: head) }
        return .uncached(.ok, metricsRegistry.emitToBuffer(), type: Self.metricsType, head: head)
    }

    /// The content type of Prometheus's text exposition format.
    static let metricsType = "text/plain; version=0.0.4; charset=utf-8"

}
