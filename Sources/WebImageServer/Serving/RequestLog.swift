import Hummingbird
import Logging

/// The request line and the response count of each answer: logged as imgproxy logs a request
/// (method, path without the signature, status, bytes, milliseconds, where the result and its
/// source came from) and counted by status in ``ServerMetrics``.
struct RequestLog: Sendable {
    /// Receives one line per image request.
    let logger: Logger
    /// Where answers are counted.
    let metrics: ServerMetrics

    /// Counts `answer` by its status and logs its line; `route` names the path without its
    /// signature when the path was routed.
    func record(_ answer: PreparedResponse, to request: HTTPRequest, path: String, image: ProcessedImage?,
                route: RoutedPath?, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        metrics.countResponse(status: answer.head.status.code, after: elapsed)
        logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(route?.loggedPath ?? Self.unsigned(path)),
            "status": .stringConvertible(answer.head.status.code),
            "bytes": .stringConvertible(answer.head.headerFields[.contentLength].flatMap { Int($0) } ?? 0),
            "ms": .stringConvertible(Self.milliseconds(elapsed)),
            "cache": .string(image?.source.rawValue ?? "-"),
            "source": .string(image?.sourceOrigin?.rawValue ?? "-"),
        ])
    }

    /// `path` without its first segment (the signature), cut to 300 characters, anything but
    /// printable ASCII shown as `?`: what a log line may show.
    static func unsigned(_ path: String) -> String {
        let afterSlash = path.dropFirst()
        let rest = afterSlash.firstIndex(of: "/").map { afterSlash[$0...] } ?? ""
        return String(String.UnicodeScalarView(rest.unicodeScalars.prefix(300).map { (0x21...0x7E).contains($0.value) ? $0 : "?" }))
    }

    /// `duration` in milliseconds to a tenth, `12.3` (a number in JSON lines).
    private static func milliseconds(_ duration: Duration) -> Double {
        let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
        return Double(tenths) / 10
    }
}
