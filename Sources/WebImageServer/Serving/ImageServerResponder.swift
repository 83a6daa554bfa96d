import Foundation
import Hummingbird
import Logging
import Prometheus
import WebImage

/// Answers HTTP requests as imgproxy does: `GET`/`HEAD` of an imgproxy (or thumbor) URL → the
/// processed image, `/health` → 200, `/metrics` → the registry's metrics in Prometheus's text
/// format (when one is given), `OPTIONS` → a CORS preflight's answer when an origin is
/// allowed (`CORSPolicy`; 405 otherwise, as any other method), errors → their status with a
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
    /// Where connections are taken: the path prefix and the deadline of an image request are
    /// the responder's to apply.
    public let listening: ServerConfiguration.ListeningSettings
    /// `Cache-Control: max-age` of images, in seconds (``ServerConfiguration/AnswerSettings/ttl``).
    public let ttl: Int
    /// Receives one line per image request: method, path without the signature, status, bytes,
    /// milliseconds, where the result came from and, when made now, where its source came from.
    public var logger: Logger { log.logger }
    /// The metrics `/metrics` shows (or the listener of ``metricsAddress``): the registry of the
    /// Prometheus factory the process bootstrapped swift-metrics with, so everything any module
    /// counts appears; nil: 404.
    public let metricsRegistry: PrometheusCollectorRegistry?
    /// Where a listener of its own answers with the metrics, in place of the main port's
    /// `/metrics` (``ServerConfiguration/MetricsSettings/prometheusBind``); nil: at `/metrics`.
    public let metricsAddress: ServerConfiguration.ListenAddress?

    /// `/health` and `/metrics`.
    private let services: ServiceEndpoints
    /// The `Authorization` every image request must carry, or nil.
    private let secret: AuthorizationSecret?
    /// The output format chosen from `Accept`.
    private let negotiation: FormatNegotiation
    /// The answers that carry images, and 304s.
    private let answers: ImageAnswers
    /// The CORS fields and preflight answer when ``ServerConfiguration/ListeningSettings/allowOrigin`` is set.
    private let cors: CORSPolicy?
    /// Which of a client's validators are sent on to an origin.
    private let conditions: ServerConfiguration.AnswerSettings
    /// Which fields of a client's request are sent on to an origin, cookies and thumbor's forwarded headers.
    private let forwarding: SourceForwarding
    /// Whether requests' client hints are read (``ServerConfiguration/URLSettings/enableClientHints``).
    private let readsClientHints: Bool
    /// Whether a client's `traceparent` is continued (``ServerConfiguration/TelemetrySettings/propagateExternal``).
    private let continuesClientTraces: Bool
    /// The request lines and response counts.
    private let log: RequestLog
    /// Paths routed lately (their signatures checked), by the raw path: a cached result's
    /// request repeats its path, and is answered without reading it again. At most 10,000
    /// paths and 4 MiB of them (a path costs its length), so long paths cannot fill memory.
    private let routes = MemoryCache<String, RoutedPath>(costLimit: 4 << 20, countLimit: 10_000)

    /// A responder reading URLs with `router`, processing with `processor`, answering as
    /// `configuration`'s listening, format, answer, overlay and log settings say (the path
    /// prefix, the deadline, `Accept`, lifetimes, validators, CORS), showing `metricsRegistry`
    /// at `/metrics`.
    public init(router: ProcessingURLRouter, processor: ImageProcessor, configuration: ServerConfiguration,
                logger: Logger = Logger(label: "webimage.serve"), metricsRegistry: PrometheusCollectorRegistry? = nil) {
        var logger = logger
        logger.logLevel = max(logger.logLevel, configuration.logs.logLevel)
        self.router = router
        self.processor = processor
        self.metricsRegistry = metricsRegistry
        metricsAddress = configuration.metrics.prometheusBind
        services = ServiceEndpoints(metricsRegistry: metricsAddress == nil ? metricsRegistry : nil,
                                    healthCheckPath: configuration.listening.healthCheckPath,
                                    answersThumborHealthcheck: configuration.urls.urlFormat != .imgproxy)
        listening = configuration.listening
        secret = configuration.listening.secret.map(AuthorizationSecret.init)
        ttl = configuration.answers.ttl
        conditions = configuration.answers
        let sources = configuration.sources
        forwarding = SourceForwarding(
            cookies: sources.cookiePassthrough ? CookiePassthrough(passesAll: sources.cookiePassthroughAll, baseURL: sources.cookieBaseURL) : nil,
            thumborHeaders: ThumborHeaderForwarding(forwardsAll: sources.thumborForwardAllHeaders, names: sources.thumborForwardHeaders,
                                                    forwardsUserAgent: sources.thumborForwardUserAgent,
                                                    keepsAuthorization: configuration.listening.secret != nil))
        readsClientHints = configuration.urls.enableClientHints
        continuesClientTraces = configuration.telemetry.propagateExternal
        negotiation = FormatNegotiation(configuration.formats)
        answers = ImageAnswers(configuration.answers, overlays: configuration.overlays, readsClientHints: readsClientHints)
        cors = configuration.listening.allowOrigin.map(CORSPolicy.init(allowOrigin:))
        log = RequestLog(logger: logger, metrics: processor.metrics)
    }

    /// The response to `request`.
    public func respond(to request: Request, context: Context) async throws -> Response {
        if request.method == .options, let cors { return Response(cors.preflightAnswer()) }
        guard request.method == .get || request.method == .head else {
            var refusal = PreparedResponse.text(.methodNotAllowed, "only GET and HEAD are served", head: false)
            refusal.head.headerFields[.allow] = cors == nil ? "GET, HEAD" : "GET, HEAD, OPTIONS"
            return Response(withCORS(refusal))
        }
        let isHead = request.method == .head
        guard let path = unprefixed(request.head.path ?? "/") else {
            return Response(withCORS(.text(.notFound, "not found: paths start with the server's path prefix", head: isHead)))
        }
        if let answer = services.answer(to: path, head: isHead) { return Response(withCORS(answer)) }
        log.metrics.requestsInFlight.increment()
        defer { log.metrics.requestsInFlight.decrement() }
        let started = ContinuousClock.now
        let head = request.head
        if let secret, !secret.admits(head.headerFields) {
            // imgproxy's public message; the secret itself is never in an answer or a log line.
            let refusal = PreparedResponse.text(.forbidden, "Forbidden", head: isHead)
            log.record(refusal, to: head, path: path, image: nil, route: nil, since: started)
            return Response(withCORS(refusal))
        }
        let timeout = listening.timeout
        // A client that hangs up cancels the request (its work stops once no other request
        // waits for the same result), and so does the deadline, which answers 504.
        let departure = await context.departure
        let tracing = processor.tracing
        let (answer, image, route) = await tracing.span("/request", kind: .server,
                                                        parent: tracing.parent(of: head.headerFields, continuing: continuesClientTraces)) { span in
            span.describe(head, path: RequestLog.unsigned(path))
            let answered: (PreparedResponse, ProcessedImage?, RoutedPath?)
            switch await RequestDeadline.run(within: .milliseconds(Int(timeout * 1000)), departure: departure,
                                             { await imageAnswer(to: head, path: path) }) {
            case .answered(let answer):
                answered = answer
            case .timedOut:
                answered = (.error(.deadlineExceeded(seconds: timeout), head: isHead), nil, nil)
            case .abandoned:
                answered = (.error(.cancelled, head: isHead), nil, nil)
            }
            span.answered(answered.0.head.status.code)
            return answered
        }
        log.record(answer, to: head, path: path, image: image, route: route, since: started)
        return Response(withCORS(answer))
    }

    /// The answer to `request` when it can be given at once: `/health`, `/metrics`, a CORS
    /// preflight (`CORSPolicy`), or a `GET` or `HEAD` of a path routed before whose result
    /// the memory cache holds (counted and logged as ``respond(to:context:)`` does); nil for
    /// any other request, which ``respond(to:context:)`` must answer. It neither waits nor
    /// does I/O: the `MemoryHitHandler` calls it on the thread that read the request, so a
    /// liveness probe is answered however busy the tasks are. Such a request is never in
    /// flight, so `webimage_requests_in_progress` does not count it.
    public func immediateAnswer(to request: HTTPRequest) -> PreparedResponse? {
        if request.method == .options, let cors { return cors.preflightAnswer() }
        guard request.method == .get || request.method == .head, let target = request.path, let path = unprefixed(target) else {
            return nil
        }
        if let answer = services.answer(to: path, head: request.method == .head) { return withCORS(answer) }
        // Without the secret, respond(to:context:) refuses and logs it.
        if let secret, !secret.admits(request.headerFields) { return nil }
        guard let route = routes.value(forKey: Self.routeKey(path, hints: clientHints(in: request.headerFields))) else { return nil }
        // A request whose fields go on to the origin is answered from nothing cached.
        if forwarding.forwardsAny, !forwarding.fields(for: route.url, in: request).isEmpty { return nil }
        let started = ContinuousClock.now
        let traceStart = processor.tracing.now
        let negotiated = negotiation.negotiated(route, accepting: request.headerFields)
        // An expired URL is nil here too: respond(to:context:) gives its error. The route's own
        // URL is read where it is kept, not copied: the common case, and a large value.
        let image = if let negotiated {
            try? processor.resultInMemory(negotiated.url, cacheKey: negotiated.cacheKey)
        } else {
            try? processor.resultInMemory(route.url, cacheKey: route.cacheKey)
        }
        guard let image else { return nil }
        let answer = answers.answer(image, for: route, request: request, variesByAccept: negotiated != nil)
        log.record(answer, to: request, path: path, image: image, route: route, since: started)
        let tracing = processor.tracing
        tracing.record("/request", kind: .server, parent: tracing.parent(of: request.headerFields, continuing: continuesClientTraces),
                       since: traceStart) { span in
            span.describe(request, path: RequestLog.unsigned(path))
            span.answered(answer.head.status.code)
            span.set("webimage.cache.hit", "memory")
        }
        return withCORS(answer)
    }

    /// `path` after the configuration's ``ServerConfiguration/ListeningSettings/pathPrefix`` (imgproxy's
    /// `IMGPROXY_PATH_PREFIX`, `/images` for `/images/insecure/…`); nil when it does not start
    /// with the prefix and a `/` after it.
    private func unprefixed(_ path: String) -> String? {
        let prefix = listening.pathPrefix.utf8
        guard !prefix.isEmpty else { return path }
        let bytes = path.utf8
        guard bytes.starts(with: prefix), bytes.dropFirst(prefix.count).first == UInt8(ascii: "/") else { return nil }
        return String(path[bytes.index(bytes.startIndex, offsetBy: prefix.count)...])
    }

    /// `answer` with the CORS fields of ``ServerConfiguration/ListeningSettings/allowOrigin`` when it is set.
    private func withCORS(_ answer: PreparedResponse) -> PreparedResponse {
        cors?.applied(to: answer) ?? answer
    }

    /// The answer to an image request for `path`, its image and its route (nil for an error,
    /// the route nil too when the path was refused).
    private func imageAnswer(to request: HTTPRequest, path: String) async -> (PreparedResponse, ProcessedImage?, RoutedPath?) {
        var routed: RoutedPath?
        let isHead = request.method == .head
        do throws(ProcessingError) {
            let route = try route(path, hints: clientHints(in: request.headerFields))
            routed = route
            let negotiated = negotiation.negotiated(route, accepting: request.headerFields)
            let conditions = SourceConditions(ifNoneMatch: request.headerFields[.ifNoneMatch],
                                              ifModifiedSince: request.headerFields[.ifModifiedSince],
                                              forwarded: forwarding.forwardsAny ? forwarding.fields(for: route.url, in: request) : [],
                                              answers: conditions)
            let image = try await processor.process(negotiated?.url ?? route.url, cacheKey: negotiated?.cacheKey ?? route.cacheKey,
                                                    conditions: conditions)
            return (answers.answer(image, for: route, request: request, variesByAccept: negotiated != nil), image, route)
        } catch .sourceNotModified(let origin) {
            return (answers.notModified(origin, for: routed), nil, routed)
        } catch {
            return (.error(error, form: routed?.url.form ?? .imgproxy, head: isHead), nil, routed)
        }
    }

    /// The route of `path` with the browser's `hints`, from ``routes`` or read by the router now
    /// (a path refused is not kept).
    private func route(_ path: String, hints: ClientHints?) throws(ProcessingError) -> RoutedPath {
        let key = Self.routeKey(path, hints: hints)
        if let known = routes.value(forKey: key) { return known }
        let route = RoutedPath(try router.route(path, clientHints: hints), loggedPath: RequestLog.unsigned(path))
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
        guard readsClientHints else { return nil }
        return ClientHints(dpr: fields[Self.dprHint] ?? fields[Self.legacyDPRHint], width: fields[Self.widthHint] ?? fields[Self.legacyWidthHint],
                           limits: router.imgproxyParser.limits)
    }

    private static let dprHint = Field.Name("Sec-CH-DPR")!
    private static let legacyDPRHint = Field.Name("DPR")!
    private static let widthHint = Field.Name("Sec-CH-Width")!
    private static let legacyWidthHint = Field.Name("Width")!
}
