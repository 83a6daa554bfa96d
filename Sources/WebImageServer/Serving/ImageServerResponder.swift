import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import WebImage

/// Answers HTTP requests as imgproxy does: `GET`/`HEAD` of an imgproxy (or thumbor) URL → the
/// processed image, `/health` → 200, `/metrics` → the registry's metrics in Prometheus's text
/// format (when one is given), errors → their status with a one-line text body.
///
/// The path is read from the raw request target, not from a router's segments, so a plain
/// source URL keeps the `//` of `http://` and the signature covers exactly what was sent.
public struct ImageServerResponder: HTTPResponder {
    /// The request context: nothing beyond Hummingbird's basic one is needed.
    public typealias Context = BasicRequestContext
    /// A header field (HTTPTypes' `HTTPField`, which Hummingbird does not re-export).
    private typealias Field = HTTPFields.Element

    /// Reads paths as imgproxy or thumbor URLs and checks their signatures.
    public let router: ProcessingURLRouter
    /// Makes and caches the images.
    public let processor: ImageProcessor
    /// `Cache-Control: max-age` of images, in seconds.
    public let ttl: Int
    /// The formats chosen from `Accept` for URLs that name none, in order of preference
    /// (imgproxy's `IMGPROXY_AUTO_WEBP`); such responses say `Vary: Accept`.
    public let acceptedFormats: [ImageFormat]

    /// Receives one line per image request: method, path without the signature, status, bytes,
    /// milliseconds, where the result came from and, when made now, where its source came from.
    public let logger: Logger
    /// The metrics `/metrics` shows: the registry of the Prometheus factory the process
    /// bootstrapped swift-metrics with, so everything any module counts appears; nil: 404.
    public let metricsRegistry: PrometheusCollectorRegistry?
    /// Where requests are counted.
    private let metrics: ServerMetrics
    /// The `Cache-Control` field of images, spelled once.
    private let cacheControl: String
    /// Paths routed lately (their signatures checked), by the raw path: a cached result's
    /// request repeats its path, and is answered without reading it again. At most 10,000
    /// paths and 4 MiB of them (a path costs its length), so long paths cannot fill memory.
    private let routes = MemoryCache<String, RoutedPath>(costLimit: 4 << 20, countLimit: 10_000)

    /// A responder reading URLs with `router`, processing with `processor`, letting caches keep
    /// images for `ttl` seconds, choosing among `acceptedFormats` by `Accept`, showing
    /// `metricsRegistry` at `/metrics`.
    public init(router: ProcessingURLRouter, processor: ImageProcessor, ttl: Int,
                acceptedFormats: [ImageFormat] = [], logger: Logger = Logger(label: "webimage.serve"),
                metricsRegistry: PrometheusCollectorRegistry? = nil) {
        self.logger = logger
        self.metricsRegistry = metricsRegistry
        metrics = ServerMetrics()
        self.router = router
        self.processor = processor
        self.ttl = ttl
        cacheControl = "max-age=\(ttl), public"
        self.acceptedFormats = acceptedFormats
    }

    /// The response to `request`.
    public func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "only GET and HEAD are served", head: false)
        }
        let isHead = request.method == .head
        let path = request.head.path ?? "/"
        switch path.prefix(while: { $0 != "?" }) {
        case "/health":
            return Self.text(.ok, "webimage serve is running", head: isHead)
        case "/metrics":
            guard let metricsRegistry else { return Self.text(.notFound, "metrics are not enabled", head: isHead) }
            // Prometheus's text exposition format.
            return Self.uncached(.ok, metricsRegistry.emitToBuffer(), type: "text/plain; version=0.0.4; charset=utf-8", head: isHead)
        default:
            break
        }
        metrics.requestsInFlight.increment()
        let started = ContinuousClock.now
        let (response, image, route) = await imageResponse(to: request, path: path, head: isHead)
        let elapsed = started.duration(to: .now)
        metrics.requestsInFlight.decrement()
        metrics.countResponse(status: response.status.code)
        logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(route?.loggedPath ?? Self.unsigned(path)),
            "status": .stringConvertible(response.status.code),
            "bytes": .string(response.headers[.contentLength] ?? "0"),
            "ms": .string(Self.milliseconds(elapsed)),
            "cache": .string(image?.source.rawValue ?? "-"),
            "source": .string(image?.sourceOrigin?.rawValue ?? "-"),
        ])
        return response
    }

    /// The response to an image request for `path`, its image and its route (nil for an error,
    /// the route nil too when the path was refused).
    private func imageResponse(to request: Request, path: String, head isHead: Bool)
        async -> (Response, ProcessedImage?, RoutedPath?) {
        var routed: RoutedPath?
        do throws(ProcessingError) {
            let route = try route(path)
            routed = route
            let variesByAccept = route.url.options.format == nil && !acceptedFormats.isEmpty
            let image: ProcessedImage
            if variesByAccept {
                var negotiated = route.url
                negotiated.options.format = preferredFormat(accepting: request.headers[values: .accept])
                image = try await processor.process(negotiated)
            } else {
                image = try await processor.process(route.url, cacheKey: route.cacheKey)
            }
            return (imageResponse(image, for: route, request: request, head: isHead, variesByAccept: variesByAccept), image, route)
        } catch {
            return (Self.text(HTTPResponse.Status(code: error.status), error.description, head: isHead), nil, routed)
        }
    }

    /// The route of `path`, from ``routes`` or read by the router now (a path refused is not kept).
    private func route(_ path: String) throws(ProcessingError) -> RoutedPath {
        if let known = routes.value(forKey: path) { return known }
        let route = RoutedPath(try router.route(path), loggedPath: Self.unsigned(path))
        routes.setValue(route, forKey: path, cost: path.utf8.count)
        return route
    }

    /// `path` without its first segment (the signature), cut to 300 characters, anything but
    /// printable ASCII shown as `?`: what a log line may show.
    private static func unsigned(_ path: String) -> String {
        let afterSlash = path.dropFirst()
        let rest = afterSlash.firstIndex(of: "/").map { afterSlash[$0...] } ?? ""
        return String(String.UnicodeScalarView(rest.unicodeScalars.prefix(300).map { (0x21...0x7E).contains($0.value) ? $0 : "?" }))
    }

    /// `duration` in milliseconds with one decimal, `12.3`.
    private static func milliseconds(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The image with its type, caching headers, a strong `ETag`, a `Last-Modified` (304 when
    /// `If-None-Match` has the tag or, without `If-None-Match`, `If-Modified-Since` is no
    /// earlier) and a `Content-Disposition` naming the file.
    private func imageResponse(_ image: ProcessedImage, for route: RoutedPath, request: Request, head: Bool,
                               variesByAccept: Bool) -> Response {
        var headers = HTTPFields()
        headers.reserveCapacity(8)
        if variesByAccept {
            headers.append(Field(name: .vary, value: "Accept"))
        }
        headers.append(Field(name: .eTag, value: image.etag))
        headers.append(Field(name: .lastModified, value: image.lastModified))
        headers.append(Field(name: .cacheControl, value: cacheControl))
        if isNotModified(image, request: request) {
            return Response(status: .notModified, headers: headers)
        }
        headers.append(Field(name: .contentType, value: image.mediaType))
        headers.append(Field(name: .contentLength, value: String(image.data.count)))
        let disposition: String = route.url.options.returnAttachment ? "attachment" : "inline"
        let fileName: String = route.fileStem + "." + image.format.fileExtension
        headers.append(Field(name: .contentDisposition, value: disposition + "; filename=\"" + fileName + "\""))
        let body = head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: image.data))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Whether the client's copy of `image` is current: `If-None-Match` lists its tag (or `*`),
    /// or, without `If-None-Match`, `If-Modified-Since` is no earlier than its creation.
    private func isNotModified(_ image: ProcessedImage, request: Request) -> Bool {
        let tags = request.headers[values: .ifNoneMatch]
        guard tags.isEmpty else {
            return tags.flatMap { $0.split(separator: ",") }
                .contains { let tag = $0.trimmingCharacters(in: .whitespaces); return tag == image.etag || tag == "*" }
        }
        return request.headers[.ifModifiedSince].flatMap(HTTPDate.date(from:)).map { image.created <= $0 } ?? false
    }

    /// The first of ``acceptedFormats`` whose media type an `Accept` field lists, or nil (the
    /// source's format).
    private func preferredFormat(accepting fields: [String]) -> ImageFormat? {
        let listed = Set(fields.flatMap { $0.split(separator: ",") }.map {
            $0.split(separator: ";", omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces).lowercased()
        })
        return acceptedFormats.first { listed.contains("image/\($0.rawValue)") }
    }

    /// A short `text/plain` response.
    private static func text(_ status: HTTPResponse.Status, _ message: String, head: Bool) -> Response {
        uncached(status, Array((message + "\n").utf8), type: "text/plain; charset=utf-8", head: head)
    }

    /// A response of `bytes` in `type` that caches must not keep.
    private static func uncached(_ status: HTTPResponse.Status, _ bytes: [UInt8], type: String, head: Bool) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentLength] = String(bytes.count)
        headers[.cacheControl] = "no-cache"
        return Response(status: status, headers: headers, body: head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
