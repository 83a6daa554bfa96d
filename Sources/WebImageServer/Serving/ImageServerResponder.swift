import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import WebImage

/// Answers HTTP requests as imgproxy does: `GET`/`HEAD` of an imgproxy (or thumbor) URL → the
/// processed image, `/health` → 200, `/metrics` → the registry's metrics in Prometheus's text
/// format (when one is given), `OPTIONS` → a CORS preflight's answer when an origin is
/// allowed (``CORSPolicy``; 405 otherwise, as any other method), errors → their status with a
/// one-line text body.
///
/// The path is read from the raw request target, not from a router's segments, so a plain
/// source URL keeps the `//` of `http://` and the signature covers exactly what was sent.
public struct ImageServerResponder: HTTPResponder {
    /// The request context: Hummingbird's basic one and the request's connection.
    public typealias Context = ImageRequestContext
    /// A header field (HTTPTypes' `HTTPField`, which Hummingbird does not re-export).
    private typealias Field = HTTPFields.Element

    /// Reads paths as imgproxy or thumbor URLs and checks their signatures.
    public let router: ProcessingURLRouter
    /// Makes and caches the images.
    public let processor: ImageProcessor
    /// `Cache-Control: max-age` of images, in seconds.
    public let ttl: Int
    /// The formats chosen from `Accept` for URLs that name none, in order of preference, by
    /// URL form (``ServerConfiguration/acceptedFormats(for:)``); such responses say `Vary: Accept`.
    private let acceptedFormats: [ProcessingURLForm: [ImageFormat]]
    /// The accepted formats an opaque still PNG's JPEG goes before, by URL form
    /// (``ServerConfiguration/formatsOpaquePNGToJPEGOutranks(for:)``).
    private let formatsOpaquePNGToJPEGOutranks: [ProcessingURLForm: [ImageFormat]]
    /// The formats chosen from `Accept` for URLs that name one too (imgproxy's
    /// `IMGPROXY_ENFORCE_WEBP`), in order of preference; such responses say `Vary: Accept`.
    private let enforcedFormats: [ImageFormat]

    /// Receives one line per image request: method, path without the signature, status, bytes,
    /// milliseconds, where the result came from and, when made now, where its source came from.
    public let logger: Logger
    /// The metrics `/metrics` shows: the registry of the Prometheus factory the process
    /// bootstrapped swift-metrics with, so everything any module counts appears; nil: 404.
    public let metricsRegistry: PrometheusCollectorRegistry?
    /// Where requests are counted.
    private let metrics: ServerMetrics
    /// The CORS fields and preflight answer when ``ServerConfiguration/allowOrigin`` is set.
    private let cors: CORSPolicy?
    /// The `Cache-Control` field of images, spelled once.
    private let cacheControl: String
    /// Paths routed lately (their signatures checked), by the raw path: a cached result's
    /// request repeats its path, and is answered without reading it again. At most 10,000
    /// paths and 4 MiB of them (a path costs its length), so long paths cannot fill memory.
    private let routes = MemoryCache<String, RoutedPath>(costLimit: 4 << 20, countLimit: 10_000)

    /// A responder reading URLs with `router`, processing with `processor`, letting caches keep
    /// images for `ttl` seconds, choosing formats by `Accept` as the processor's configuration
    /// says, showing `metricsRegistry` at `/metrics`.
    public init(router: ProcessingURLRouter, processor: ImageProcessor, ttl: Int, logger: Logger = Logger(label: "webimage.serve"),
                metricsRegistry: PrometheusCollectorRegistry? = nil) {
        var logger = logger
        logger.logLevel = max(logger.logLevel, processor.configuration.logLevel)
        self.logger = logger
        self.metricsRegistry = metricsRegistry
        metrics = ServerMetrics()
        self.router = router
        self.processor = processor
        self.ttl = ttl
        cacheControl = "max-age=\(ttl), public"
        let configuration = processor.configuration
        acceptedFormats = [.imgproxy: configuration.acceptedFormats(for: .imgproxy), .thumbor: configuration.acceptedFormats(for: .thumbor)]
        formatsOpaquePNGToJPEGOutranks = [.imgproxy: configuration.formatsOpaquePNGToJPEGOutranks(for: .imgproxy),
                                          .thumbor: configuration.formatsOpaquePNGToJPEGOutranks(for: .thumbor)]
        enforcedFormats = configuration.enforcedFormats
        cors = configuration.allowOrigin.map(CORSPolicy.init(allowOrigin:))
    }

    /// The response to `request`.
    public func respond(to request: Request, context: Context) async throws -> Response {
        if request.method == .options, let cors { return Response(cors.preflightAnswer()) }
        guard request.method == .get || request.method == .head else {
            var refusal = Self.text(.methodNotAllowed, "only GET and HEAD are served", head: false)
            refusal.head.headerFields[.allow] = cors == nil ? "GET, HEAD" : "GET, HEAD, OPTIONS"
            return Response(refusal)
        }
        let isHead = request.method == .head
        guard let path = unprefixed(request.head.path ?? "/") else {
            return Response(Self.text(.notFound, "not found: paths start with the server's path prefix", head: isHead))
        }
        if let answer = serviceAnswer(to: path, head: isHead) { return Response(withCORS(answer)) }
        metrics.requestsInFlight.increment()
        defer { metrics.requestsInFlight.decrement() }
        let started = ContinuousClock.now
        let head = request.head
        let timeout = processor.configuration.timeout
        // A client that hangs up cancels the request (its work stops once no other request
        // waits for the same result), and so does the deadline, which answers 504.
        let answered: (PreparedResponse, ProcessedImage?, RoutedPath?)
        let departure = await context.departure
        switch await RequestDeadline.run(within: .milliseconds(Int(timeout * 1000)), departure: departure,
                                         { await imageAnswer(to: head, path: path) }) {
        case .answered(let answer):
            answered = answer
        case .timedOut:
            answered = (Self.errorAnswer(.deadlineExceeded(seconds: timeout), head: isHead), nil, nil)
        case .abandoned:
            answered = (Self.errorAnswer(.cancelled, head: isHead), nil, nil)
        }
        let (answer, image, route) = answered
        record(answer, to: head, path: path, image: image, route: route, since: started)
        return Response(withCORS(answer))
    }

    /// `path` after the configuration's ``ServerConfiguration/pathPrefix`` (imgproxy's
    /// `IMGPROXY_PATH_PREFIX`, `/images` for `/images/insecure/…`); nil when it does not start
    /// with the prefix and a `/` after it.
    private func unprefixed(_ path: String) -> String? {
        let prefix = processor.configuration.pathPrefix.utf8
        guard !prefix.isEmpty else { return path }
        let bytes = path.utf8
        guard bytes.starts(with: prefix), bytes.dropFirst(prefix.count).first == UInt8(ascii: "/") else { return nil }
        return String(path[bytes.index(bytes.startIndex, offsetBy: prefix.count)...])
    }

    /// The answer to `/health` and `/metrics`, or nil for any other path. Neither waits for
    /// anything, so both are answered where the request is read, whatever image work is under way.
    private func serviceAnswer(to path: String, head: Bool) -> PreparedResponse? {
        // Compared as bytes: every image request passes here, and its path is long.
        let bytes = path.utf8
        let route = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex)]
        if route.elementsEqual("/health".utf8) {
            return Self.text(.ok, "webimage serve is running", head: head)
        }
        guard route.elementsEqual("/metrics".utf8) else { return nil }
        guard let metricsRegistry else { return Self.text(.notFound, "metrics are not enabled", head: head) }
        // Prometheus's text exposition format.
        return Self.uncached(.ok, metricsRegistry.emitToBuffer(), type: "text/plain; version=0.0.4; charset=utf-8", head: head)
    }

    /// The answer to `request` when it can be given at once: `/health`, `/metrics`, a CORS
    /// preflight (``CORSPolicy``), or a `GET` or `HEAD` of a path routed before whose result the memory cache holds (counted and logged
    /// as ``respond(to:context:)`` does); nil for any other request, which
    /// ``respond(to:context:)`` must answer. It neither waits nor does I/O: the
    /// `MemoryHitHandler` calls it on the thread that read the request, so a liveness probe is
    /// answered however busy the tasks are. Such a request is never in flight, so
    /// `webimage_requests_in_flight` does not count it.
    public func immediateAnswer(to request: HTTPRequest) -> PreparedResponse? {
        if request.method == .options, let cors { return cors.preflightAnswer() }
        guard request.method == .get || request.method == .head, let target = request.path, let path = unprefixed(target) else {
            return nil
        }
        if let answer = serviceAnswer(to: path, head: request.method == .head) { return withCORS(answer) }
        guard let route = routes.value(forKey: Self.routeKey(path, hints: clientHints(in: request.headerFields))) else { return nil }
        let started = ContinuousClock.now
        let negotiated = negotiated(route, accepting: request.headerFields)
        // An expired URL is nil here too: respond(to:context:) gives its error. The route's own
        // URL is read where it is kept, not copied: the common case, and a large value.
        let image = if let negotiated {
            try? processor.resultInMemory(negotiated.url, cacheKey: negotiated.cacheKey)
        } else {
            try? processor.resultInMemory(route.url, cacheKey: route.cacheKey)
        }
        guard let image else { return nil }
        let answer = imageAnswer(image, for: route, request: request, variesByAccept: negotiated != nil)
        record(answer, to: request, path: path, image: image, route: route, since: started)
        return withCORS(answer)
    }

    /// `answer` with the CORS fields of ``ServerConfiguration/allowOrigin`` when it is set.
    private func withCORS(_ answer: PreparedResponse) -> PreparedResponse {
        cors?.applied(to: answer) ?? answer
    }

    /// Counts `answer` by its status and logs its line: the request's method, its path without
    /// the signature, the status, the bytes, the milliseconds since `started`, where the result
    /// came from and, when made now, where its source came from.
    private func record(_ answer: PreparedResponse, to request: HTTPRequest, path: String, image: ProcessedImage?,
                        route: RoutedPath?, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        metrics.countResponse(status: answer.head.status.code)
        logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(route?.loggedPath ?? Self.unsigned(path)),
            "status": .stringConvertible(answer.head.status.code),
            "bytes": .string(answer.head.headerFields[.contentLength] ?? "0"),
            "ms": .string(Self.milliseconds(elapsed)),
            "cache": .string(image?.source.rawValue ?? "-"),
            "source": .string(image?.sourceOrigin?.rawValue ?? "-"),
        ])
    }

    /// The answer to an image request for `path`, its image and its route (nil for an error,
    /// the route nil too when the path was refused).
    private func imageAnswer(to request: HTTPRequest, path: String) async -> (PreparedResponse, ProcessedImage?, RoutedPath?) {
        var routed: RoutedPath?
        let isHead = request.method == .head
        do throws(ProcessingError) {
            let route = try route(path, hints: clientHints(in: request.headerFields))
            routed = route
            let negotiated = negotiated(route, accepting: request.headerFields)
            let conditions = SourceConditions(ifNoneMatch: request.headerFields[.ifNoneMatch],
                                              ifModifiedSince: request.headerFields[.ifModifiedSince],
                                              configuration: processor.configuration)
            let image = try await processor.process(negotiated?.url ?? route.url, cacheKey: negotiated?.cacheKey ?? route.cacheKey,
                                                    conditions: conditions)
            return (imageAnswer(image, for: route, request: request, variesByAccept: negotiated != nil), image, route)
        } catch .sourceNotModified(let origin) {
            return (notModifiedAnswer(origin, for: routed), nil, routed)
        } catch {
            return (Self.errorAnswer(error, form: routed?.url.form ?? .imgproxy, head: isHead), nil, routed)
        }
    }

    /// The URL a request for `route` asks for, with its cache key, when formats are chosen
    /// from `Accept` (the answer then varies by `Accept`): the route's URL with the formats
    /// `fields` accept, among ``acceptedFormats`` for a URL naming no format, among
    /// ``enforcedFormats`` (to be written in place of the one it names) for the others; nil when
    /// the route's own URL is asked for.
    private func negotiated(_ route: RoutedPath, accepting fields: HTTPFields) -> (url: ProcessingURL, cacheKey: String)? {
        let form = route.url.form
        let named = route.url.options.format
        let choices = named == nil ? acceptedFormats[form] ?? [] : enforcedFormats
        guard !choices.isEmpty else { return nil }
        var negotiated = route.url
        let ranges = AcceptedMediaRanges(fields[values: .accept])
        let accepted = choices.filter { ranges.accept($0, imageWildcard: form == .thumbor) }
        if named == nil {
            negotiated.options.acceptedFormats = accepted
            negotiated.options.formatsOpaquePNGToJPEGOutranks = formatsOpaquePNGToJPEGOutranks[form] ?? []
        } else {
            negotiated.options.enforcedFormats = accepted
        }
        return (negotiated, negotiated.cacheKey)
    }

    /// The route of `path` with the browser's `hints`, from ``routes`` or read by the router now
    /// (a path refused is not kept).
    private func route(_ path: String, hints: ClientHints?) throws(ProcessingError) -> RoutedPath {
        let key = Self.routeKey(path, hints: hints)
        if let known = routes.value(forKey: key) { return known }
        let route = RoutedPath(try router.route(path, clientHints: hints), loggedPath: Self.unsigned(path))
        routes.setValue(route, forKey: key, cost: key.utf8.count)
        return route
    }

    /// Where ``routes`` keeps the route of `path` read with `hints`: the path alone without them.
    private static func routeKey(_ path: String, hints: ClientHints?) -> String {
        guard let hints else { return path }
        return path + "\u{0}" + CanonicalNumber.spell(hints.dpr ?? 0) + ":" + String(hints.width ?? 0)
    }

    /// The client hints of a request's `fields` (`Sec-CH-DPR` or `DPR`, `Sec-CH-Width` or
    /// `Width`) when the server reads them (`--enable-client-hints`); nil otherwise.
    private func clientHints(in fields: HTTPFields) -> ClientHints? {
        guard processor.configuration.enableClientHints else { return nil }
        return ClientHints(dpr: fields[Self.dprHint] ?? fields[Self.legacyDPRHint], width: fields[Self.widthHint] ?? fields[Self.legacyWidthHint],
                           limits: router.imgproxyParser.limits)
    }

    private static let dprHint = Field.Name("Sec-CH-DPR")!
    private static let legacyDPRHint = Field.Name("DPR")!
    private static let widthHint = Field.Name("Sec-CH-Width")!
    private static let legacyWidthHint = Field.Name("Width")!
    /// The `Vary` of answers when client hints are read: each hint field.
    private static let clientHintsVary = "Sec-CH-DPR, DPR, Sec-CH-Width, Width"

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

    /// The image with its type, caching headers, a strong `ETag` and a `Last-Modified` (each
    /// unless configured off; 304 when `If-None-Match` has the tag or, without
    /// `If-None-Match`, `If-Modified-Since` is no earlier) and a `Content-Disposition` naming
    /// the file; without a body for `HEAD`. The fallback image is answered with its configured
    /// status and lifetime and ``fallbackField``.
    private func imageAnswer(_ image: ProcessedImage, for route: RoutedPath, request: HTTPRequest,
                             variesByAccept: Bool) -> PreparedResponse {
        var headers = HTTPFields()
        headers.reserveCapacity(10)
        // thumbor says nothing varies for an animated GIF, which it never converts.
        let variesByAccept = variesByAccept && !(route.url.options.animationsKeepFormat && image.format == .gif)
        let hinted = processor.configuration.enableClientHints
        if variesByAccept || hinted {
            let fields = [variesByAccept ? "Accept" : nil, hinted ? Self.clientHintsVary : nil].compactMap { $0 }
            headers.append(Field(name: .vary, value: fields.joined(separator: ", ")))
        }
        // The settings are read where the processor keeps them: a copy of the configuration
        // would cost a reference count for each of its many texts and lists, per request.
        if processor.configuration.useETag { headers.append(Field(name: .eTag, value: image.etag)) }
        if processor.configuration.useLastModified { headers.append(Field(name: .lastModified, value: image.lastModified)) }
        if image.isFallback {
            // A fallback stands in for an image that may exist soon: kept briefly, never 304.
            let ttl = processor.configuration.fallbackImageTTL
            let maxAge = ttl > 0 ? ttl : processor.configuration.ttl
            headers.append(Field(name: .cacheControl, value: "max-age=\(maxAge), public"))
            headers.append(Field(name: Self.fallbackField, value: "1"))
        } else {
            headers.append(Field(name: .cacheControl, value: cacheControl(of: route, lifetime: image.lifetime)))
            if isNotModified(image, request: request) {
                return PreparedResponse(status: .notModified, headerFields: headers)
            }
        }
        let meta = route.url.options.meta
        headers.append(Field(name: .contentType, value: meta?.mediaType ?? image.mediaType))
        Self.appendContentPolicy(to: &headers)
        headers.append(Field(name: .contentLength, value: String(image.body.readableBytes)))
        let disposition: String = route.url.options.returnAttachment ? "attachment" : "inline"
        let fileName: String = route.fileStem + "." + (meta.map { $0.callback == nil ? "json" : "js" } ?? image.format.fileExtension)
        headers.append(Field(name: .contentDisposition, value: disposition + "; filename=\"" + fileName + "\""))
        let body = request.method == .head ? nil : image.body
        let status: HTTPResponse.Status = image.isFallback ? HTTPResponse.Status(code: processor.configuration.fallbackImageHTTPCode) : .ok
        return PreparedResponse(status: status, headerFields: headers, body: body)
    }

    /// `Fallback-Image: 1` marks an answer made from the fallback image: the source could not be loaded.
    private static let fallbackField = Field.Name("Fallback-Image")!

    /// The `Cache-Control` of an image of `route` whose origin gave it `lifetime`: the URL's
    /// own max-age (thumbor's `max_age` filter) first, then the origin's lifetime, then ``ttl``.
    private func cacheControl(of route: RoutedPath, lifetime: ResultLifetime?) -> String {
        if let maxAge = route.url.options.maxAge { return maxAge > 0 ? "max-age=\(maxAge),public" : "no-cache" }
        return lifetime?.fieldValue(at: Date()) ?? cacheControl
    }

    /// The 304 answered when the origin said the client's copy of the source is current (its
    /// validators were sent on with the download): the origin's `ETag` and `Last-Modified` as
    /// the configuration passes them on, and the image's `Cache-Control`.
    private func notModifiedAnswer(_ origin: OriginHeaders, for route: RoutedPath?) -> PreparedResponse {
        let configuration = processor.configuration
        var headers = HTTPFields()
        if configuration.useETag, let etag = origin.etag { headers.append(Field(name: .eTag, value: etag)) }
        if let modified = origin.answeredLastModified(under: configuration) {
            headers.append(Field(name: .lastModified, value: HTTPDate.string(from: modified)))
        }
        let lifetime = configuration.cacheControlPassthrough ? origin.lifetime : nil
        headers.append(Field(name: .cacheControl, value: route.map { cacheControl(of: $0, lifetime: lifetime) } ?? cacheControl))
        return PreparedResponse(status: .notModified, headerFields: headers)
    }

    /// Whether the client's copy of `image` is current: `If-None-Match` lists its tag (or `*`),
    /// or, without `If-None-Match`, `If-Modified-Since` is no earlier than its creation; a
    /// field the configuration turns off (``ServerConfiguration/useETag``,
    /// ``ServerConfiguration/useLastModified``) is not read.
    private func isNotModified(_ image: ProcessedImage, request: HTTPRequest) -> Bool {
        let tags = processor.configuration.useETag ? request.headerFields[values: .ifNoneMatch] : []
        guard tags.isEmpty else {
            return tags.flatMap { $0.split(separator: ",") }
                .contains { let tag = $0.trimmingCharacters(in: .whitespaces); return tag == image.etag || tag == "*" }
        }
        guard processor.configuration.useLastModified else { return false }
        return request.headerFields[.ifModifiedSince].flatMap(HTTPDate.date(from:)).map { image.created <= $0 } ?? false
    }

    /// The answer to `error` for a URL in `form`: its status and its one line.
    private static func errorAnswer(_ error: ProcessingError, form: ProcessingURLForm = .imgproxy, head: Bool) -> PreparedResponse {
        text(HTTPResponse.Status(code: error.status(answering: form)), error.description, head: head)
    }

    /// A short `text/plain` response.
    private static func text(_ status: HTTPResponse.Status, _ message: String, head: Bool) -> PreparedResponse {
        uncached(status, Array((message + "\n").utf8), type: "text/plain; charset=utf-8", head: head)
    }

    /// The fields that keep a browser from running anything an answer holds, on every answer
    /// with a body: `Content-Security-Policy` as imgproxy sends it (no script, no fetch but
    /// `data:` images and inline style, a sandbox: an SVG opened as a page can do nothing), and
    /// `X-Content-Type-Options: nosniff`, so that no answer is read as another type than it says.
    private static func appendContentPolicy(to headers: inout HTTPFields) {
        headers.append(Field(name: .contentSecurityPolicy, value: "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"))
        headers.append(Field(name: .xContentTypeOptions, value: "nosniff"))
    }

    /// A response of `bytes` in `type` that caches must not keep.
    private static func uncached(_ status: HTTPResponse.Status, _ bytes: [UInt8], type: String, head: Bool) -> PreparedResponse {
        var headers = HTTPFields()
        headers[.contentType] = type
        appendContentPolicy(to: &headers)
        headers[.contentLength] = String(bytes.count)
        headers[.cacheControl] = "no-cache"
        return PreparedResponse(status: status, headerFields: headers, body: head ? nil : ByteBuffer(bytes: bytes))
    }
}
