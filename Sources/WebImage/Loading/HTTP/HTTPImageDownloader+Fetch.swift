import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Tracing

/// The HTTP exchange of one shared request: build the request, start its exchange (see
/// ``DownloadExchange``), and check the response head.
extension HTTPImageDownloader {
    /// New bytes needed before another partial image is decoded: at least this many, and at
    /// least a twentieth of the announced length (or an eighth of what arrived, when unknown).
    static let progressiveMinimumBytes = 8 << 10
    /// The statuses whose `Location` is followed (up to ``HTTPImageDownloader.Configuration/maxRedirects``).
    static let redirectStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// What a download ends with: its body and response head, or why there is none.
    typealias FetchOutcome = Result<DownloadExchange.Outcome, WebImageError>

    /// Starts `download`, whose outcome goes to ``complete(_:with:)``. A plain request starts its
    /// exchange here, on this thread, with no task of its own; one that must be prepared first
    /// (a request modifier, an address policy to ask) is prepared and sent by a task.
    func start(_ download: DownloadRequest) {
        if let policy = download.options.retryPolicy ?? configuration.retryPolicy, policy.maxRetries > 0 {
            download.begin(.task(Task { complete(download, with: await fetchRetrying(download, policy: policy)) }))
            return
        }
        if let tracer {
            download.begin(.task(Task { complete(download, with: await fetchTraced(download, tracer: tracer)) }))
            return
        }
        guard download.options.requestModifier == nil, addressPolicy == nil else {
            download.begin(.task(Task { complete(download, with: await fetchPrepared(download)) }))
            return
        }
        download.notify(.started)
        do {
            let request = try makeRequest(for: download)
            send(request, of: download, trail: RedirectTrail(from: request.url, limit: configuration.maxRedirects)) { result in
                self.complete(download, with: result.mapError { self.webImageError(from: $0, url: download.key.url) })
            }
        } catch {
            complete(download, with: .failure(webImageError(from: error, url: download.key.url)))
        }
    }

    /// Sends `request` for `download` through the shared client and follows its redirects along
    /// `trail`, calling `finish` with what the last exchange ends with.
    private func send(_ request: HTTPClient.Request, of download: DownloadRequest, trail: RedirectTrail,
                      finish: @escaping @Sendable (Result<DownloadExchange.Outcome, any Error>) -> Void) {
        exchange(request, of: download, via: client(for: request.url)) { result in
            guard case .failure(let redirected as DownloadExchange.Redirected) = result else { return finish(result) }
            var trail = trail
            do {
                self.send(try trail.follow(request, to: redirected.target), of: download, trail: trail, finish: finish)
            } catch {
                finish(.failure(error))
            }
        }
    }

    /// Sends `request` for `download` through `client`, as the request's step under way (so that
    /// cancelling the request stops it), and calls `finish` with what the exchange ended with
    /// (``DownloadExchange/Redirected`` at a redirect to follow), once the work it started off
    /// the event loop has ended too.
    func exchange(_ request: HTTPClient.Request, of download: DownloadRequest, via client: HTTPClient,
                  finish: @escaping @Sendable (Result<DownloadExchange.Outcome, any Error>) -> Void) {
        let delegate = DownloadExchange(download, to: request.url, by: self, handlesCookies: handlesCookies(for: download))
        // No deadline: the idle watchdog bounds silences (see `makeIdleWatchdog`).
        let task = client.execute(request: request, delegate: delegate, eventLoop: .indifferent)
        download.begin(.exchange(task))
        task.futureResult.whenComplete { result in delegate.whenSettled { finish(result) } }
    }

    /// What the exchange of `request` for `download` through `client` ends with; the async form
    /// of ``exchange(_:of:via:finish:)``, for a task that prepares a request.
    func exchange(_ request: HTTPClient.Request, of download: DownloadRequest, via client: HTTPClient)
        async throws -> DownloadExchange.Outcome {
        try await withUnsafeContinuation { continuation in
            exchange(request, of: download, via: client) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Fetches `download` (in a client span when there is a tracer) until it succeeds, fails in a
    /// way `policy` does not retry, or has been tried as often as `policy` allows, waiting as the
    /// policy says in between; the wait counts as activity for the idle watchdog, and a
    /// cancellation ends it with ``WebImageError/cancelled``.
    private func fetchRetrying(_ download: DownloadRequest, policy: DownloadRetryPolicy) async -> FetchOutcome {
        var retry = 0
        while true {
            let outcome = if let tracer { await fetchTraced(download, tracer: tracer) } else { await fetchPrepared(download) }
            guard case .failure(let error) = outcome, retry < policy.maxRetries, policy.retries(error), !Task.isCancelled else {
                return outcome
            }
            retry += 1
            var left = policy.delay(beforeRetry: retry, retryAfter: download.takeRetryAfter())
            let step = max(0.01, configuration.effectiveTimeout / 4)
            while left > 0 {
                download.noteActivity()
                do {
                    try await Task.sleep(for: .seconds(min(left, step)))
                } catch {
                    return .failure(.cancelled)
                }
                left -= step
            }
            download.noteActivity()
        }
    }

    /// Prepares `download` (its request modifier, its address policy) and fetches it; on the
    /// task that prepares it.
    private func fetchPrepared(_ download: DownloadRequest) async -> FetchOutcome {
        download.notify(.started)
        do {
            var request = try makeRequest(for: download)
            if let modifier = download.options.requestModifier {
                guard let modified = try await modifier(Self.clientRequest(request)) else {
                    throw WebImageError.invalidDownloadOperation
                }
                request = try Self.exchangeRequest(modified)
            }
            try Task.checkCancellation()
            guard let addressPolicy else {
                let trail = RedirectTrail(from: request.url, limit: configuration.maxRedirects)
                return .success(try await withUnsafeContinuation { continuation in
                    send(request, of: download, trail: trail) { continuation.resume(returning: $0) }
                }.get())
            }
            return .success(try await executePinned(request, of: download, policy: addressPolicy))
        } catch {
            return .failure(webImageError(from: error, url: download.key.url))
        }
    }

    /// Fetches `download` as ``fetchPrepared(_:)`` does, in a client span of `tracer`, the child
    /// of the context the request was created in: the span's context is what ``makeRequest(for:)``
    /// sends to the origin (W3C `traceparent` with an OpenTelemetry tracer).
    private func fetchTraced(_ download: DownloadRequest, tracer: any Tracer) async -> FetchOutcome {
        let span = tracer.startSpan("GET", context: download.traceContext ?? .topLevel, ofKind: .client)
        span.attributes["http.request.method"] = "GET"
        span.attributes["server.address"] = download.key.url.host ?? ""
        let outcome = await ServiceContext.$current.withValue(span.context) { await fetchPrepared(download) }
        switch outcome {
        case .success(let fetched):
            if let status = fetched.response.statusCode { span.attributes["http.response.status_code"] = status }
        case .failure(let error):
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
        return outcome
    }

    /// Whether `download` sends and stores cookies.
    private func handlesCookies(for download: DownloadRequest) -> Bool {
        configuration.handleCookies || download.options.handleCookies
    }

    private func makeRequest(for download: DownloadRequest) throws -> HTTPClient.Request {
        let key = download.key, options = download.options
        var request = try HTTPClient.Request(url: key.url, method: .GET)
        // The configuration's two default fields and `setValue(_:forHTTPHeaderField:)` (the
        // configuration's and the downloader's) keep the names distinct in any case, so each
        // field is added without a search for an earlier one.
        for (name, value) in headers.withLock({ $0 }) { request.headers.add(name: name, value: value) }
        if let username = configuration.username, let password = configuration.password {
            request.setBasicAuth(username: username, password: password)
        }
        if let etag = key.ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let date = key.ifModifiedSince { request.headers.replaceOrAdd(name: "If-Modified-Since", value: date) }
        if handlesCookies(for: download), let cookie = cookies.cookieHeader(for: key.url) {
            request.headers.replaceOrAdd(name: "Cookie", value: cookie)
        }
        if let tracer, let context = ServiceContext.current {
            tracer.inject(context, into: &request.headers, using: TraceHeaderInjector())
        }
        if options.allowInvalidSSLCertificates && !configuration.allowInvalidSSLCertificates {
            request.tlsConfiguration = Self.unverifiedTLS
        }
        return request
    }

    /// `request` as a request modifier sees it.
    private static func clientRequest(_ request: HTTPClient.Request) -> HTTPClientRequest {
        var shown = HTTPClientRequest(url: request.url.absoluteString)
        shown.method = request.method
        shown.headers = request.headers
        shown.tlsConfiguration = request.tlsConfiguration
        return shown
    }

    /// The request to send for what a request modifier returned. An image request has no body:
    /// one with a body is refused, and so is a URL that cannot be requested (``HTTPRequestURL``).
    private static func exchangeRequest(_ modified: HTTPClientRequest) throws -> HTTPClient.Request {
        guard modified.body == nil else { throw WebImageError.invalidDownloadOperation }
        guard let url = URL(string: modified.url) else {
            throw WebImageError.invalidURL("the request modifier returned an unreadable URL")
        }
        try HTTPRequestURL.check(url)
        return try HTTPClient.Request(url: url, method: modified.method, headers: modified.headers,
                                      tlsConfiguration: modified.tlsConfiguration)
    }

    /// Throws when the response head (whose `Content-Length` says `expectedLength`) says the
    /// body is not wanted.
    func check(_ head: ImageLoadResponse, expectedLength: Int?) throws(WebImageError) {
        guard let status = head.statusCode else { throw .invalidDownloadResponse }
        if status == 304 { throw .cacheNotModified }
        guard configuration.acceptableStatusCodes.contains(status) else {
            if configuration.maxRedirects > 0, Self.redirectStatusCodes.contains(status), let location = head[header: "Location"] {
                // AsyncHTTPClient hands back a redirect it will not follow: one out of http(s).
                let scheme = URL(string: location)?.scheme.map { "a \($0): URL" } ?? "an unreadable location"
                throw .invalidURL("refused a redirect to \(scheme): only http and https redirects are followed")
            }
            throw .badStatusCode(status)
        }
        if configuration.acceptableContentTypes != nil {
            let mimeType = head.mimeType
            guard configuration.accepts(contentType: mimeType) else { throw .invalidContentType(mimeType) }
        }
        if let length = expectedLength, length > configuration.maxBytes {
            throw .tooLarge(limit: configuration.maxBytes)
        }
    }
}
