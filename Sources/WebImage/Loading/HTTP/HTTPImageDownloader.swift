import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Locking
import Tracing

/// Downloads images over HTTP(S) (SDWebImage's `SDWebImageDownloader`), with AsyncHTTPClient.
///
/// - One HTTP request per URL at a time: callers of a URL that is already being fetched join
///   that request. Each caller has its own ``DownloadToken``, events, completion and decode
///   options; the bytes are decoded once per distinct decode options.
/// - A queue: at most ``HTTPImageDownloader/Configuration/maxConcurrentDownloads`` requests run;
///   queued ones start by priority, then FIFO or LIFO. A queued request moves up when a more
///   urgent caller joins it. ``suspend()`` holds the queue; running requests go on.
/// - Ownership: the downloader creates one `HTTPClient` of its own on the process-wide event
///   loop group (`HTTPClient.defaultEventLoopGroup`) and owns it (with an address policy, one
///   per host and address, kept while their connections may be reused). Call ``shutdown()`` before
///   releasing a downloader you created: AsyncHTTPClient requires its client to be shut down.
///   ``shared`` lives for the whole process.
///
/// No task runs a download: its request goes out on the thread that starts it and its response
/// arrives on AsyncHTTPClient's event loop (requests with a request modifier or an address policy
/// are prepared on a task first). The outcome is decoded and handed out on the task of a caller
/// of ``image(for:options:events:)`` waiting on it, or, without one, on a task of the
/// downloader's.
///
/// Callbacks never run under the downloader's lock. Completions run where the outcome is handed
/// out or, for a cancel, on the thread that cancels; every completion runs exactly once, and no
/// event follows it. Progress events run where the bytes arrive, on AsyncHTTPClient's event loop
/// (the first on a response modifier's task, the last where the outcome is handed out): keep
/// them short. Partial images are decoded on a task while the body waits.
public final class HTTPImageDownloader: ImageLoader {
    /// The configuration, as given at creation.
    public let configuration: HTTPImageDownloader.Configuration
    /// Chooses (or refuses) the address each request and redirect connects to; nil connects
    /// wherever the host name resolves, through the shared client.
    public let addressPolicy: (any ConnectionAddressPolicy)?
    let client: HTTPClient
    /// A client for each proxy of ``Configuration/proxy``.
    let proxiedClients: [HTTPProxy: HTTPClient]
    let state: Mutex<DownloadScheduler>
    let headers: Mutex<[String: String]>
    let cookies = HTTPCookieJar()
    /// The clients of requests under the ``addressPolicy``, kept for their connections' idle time.
    let pinnedClients: PinnedClientPool

    /// The tracer each download's client span is made by, if any (see ``init(configuration:addressPolicy:tracer:)``).
    let tracer: (any Tracer)?

    /// The downloader ``ImageLoaders/shared`` uses, with the default configuration.
    public static let shared = HTTPImageDownloader()

    /// A downloader with its own HTTP client, configured by `configuration`; with an
    /// `addressPolicy`, each request connects only to the address the policy chose for its host
    /// (see ``ConnectionAddressPolicy``). With a `tracer`, each download (redirects included)
    /// is a client span, the child of the trace context its first caller was in, and that
    /// span's context is sent to the origin in the tracer's fields (W3C `traceparent` for
    /// OpenTelemetry), so an origin's spans join the same trace.
    public init(configuration: HTTPImageDownloader.Configuration = HTTPImageDownloader.Configuration(),
                addressPolicy: (any ConnectionAddressPolicy)? = nil, tracer: (any Tracer)? = nil) {
        self.configuration = configuration
        self.addressPolicy = addressPolicy
        self.tracer = tracer
        self.state = Mutex(DownloadScheduler(maxConcurrent: configuration.maxConcurrentDownloads,
                                             order: configuration.executionOrder))
        self.headers = Mutex(configuration.httpHeaders)
        let idle = max(0, configuration.connectionIdleTimeout)
        self.pinnedClients = PinnedClientPool(idleTime: .nanoseconds(Int64(idle * 1_000_000_000)))
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                 configuration: Self.clientConfiguration(for: configuration, tracesItself: tracer != nil))
        let proxies = Set([configuration.proxy?.httpProxy, configuration.proxy?.httpsProxy].compactMap { $0 })
        self.proxiedClients = Dictionary(uniqueKeysWithValues: proxies.map { proxy in
            (proxy, HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                               configuration: Self.clientConfiguration(for: configuration, tracesItself: tracer != nil, proxy: proxy)))
        })
    }

    /// The client a download of `url` goes through, unpinned: the one of the proxy
    /// ``Configuration/proxy`` names for it, else the direct one.
    func client(for url: URL) -> HTTPClient {
        configuration.proxy?.proxy(for: url).flatMap { proxiedClients[$0] } ?? client
    }

    // MARK: Requests

    /// Whether `url` is an `http` or `https` URL with a host.
    public func canRequest(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// Starts (or joins) the download of `url` and returns this caller's token.
    ///
    /// `events` receives progress (received bytes never go down, the last event reports all
    /// bytes) and, with ``ImageLoaderOptions/progressive``, partial images. `completion` runs
    /// exactly once: with the image, or with a ``WebImageError``. A request that cannot start
    /// (a URL this downloader cannot request, or a downloader shut down) completes before this
    /// method returns. A request with a free slot is sent from the calling thread.
    @discardableResult
    public func downloadImage(
        with url: URL, options: ImageLoaderOptions = ImageLoaderOptions(),
        events: ImageLoadingEventHandler? = nil,
        completion: @escaping @Sendable (Result<ImageLoadResult, WebImageError>) -> Void
    ) -> DownloadToken {
        let caller = DownloadCaller(options: options, events: events, delivers: false) {
            if case .finished(let result) = $0 { completion(DownloadResult.imageResult(result)) }
        }
        guard let ids = register(url, options: options, caller: caller) else {
            return DownloadToken(url: url) {}
        }
        return DownloadToken(url: url) { [self] in cancel(caller: ids.caller, of: ids.operation) }
    }

    /// Downloads and decodes the image at `url`; the async form of
    /// ``downloadImage(with:options:events:completion:)``. Cancelling the calling task cancels
    /// this caller's token.
    ///
    /// The calling task may be the one that decodes the download and completes its other
    /// callers (see ``HTTPImageDownloader``): a download then costs no task of its own.
    public func image(
        for url: URL, options: ImageLoaderOptions = ImageLoaderOptions(),
        events: ImageLoadingEventHandler? = nil
    ) async throws(WebImageError) -> ImageLoadResult {
        try DownloadResult.imageResult(await download(url, options: options, events: events, decodes: true)).get()
    }

    /// Downloads the bytes at `url` without decoding them (through the options' decryptor), as
    /// one more caller of the same shared download as ``image(for:options:events:)``: every
    /// limit, deadline and address check applies, and an image caller of the same URL shares
    /// the request. Bytes that are no image are returned all the same. Cancelling the calling
    /// task cancels this caller.
    public func data(
        for url: URL, options: ImageLoaderOptions = ImageLoaderOptions(),
        events: ImageLoadingEventHandler? = nil
    ) async throws(WebImageError) -> ImageDataLoadResult {
        let downloaded = try await download(url, options: options, events: events, decodes: false).get()
        return downloaded.body
    }

    /// Waits as a caller of the download of `url`, decoding when `decodes` (and handing the
    /// outcome out to the other callers when woken to).
    private func download(_ url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?,
                          decodes: Bool) async -> Result<DownloadResult, WebImageError> {
        // The caller's identifiers stand in for a token: one allocation instead of three.
        let registered = Mutex<(operation: UInt64, caller: UInt64)?>(nil)
        let wake = await withTaskCancellationHandler {
            // The downloader wakes every caller exactly once (it completes it, or hands it its
            // download's outcome), so the continuation is resumed exactly once.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<DownloadWake, Never>) in
                let caller = DownloadCaller(options: options, events: events, delivers: true, decodes: decodes) {
                    continuation.resume(returning: $0)
                }
                guard let ids = register(url, options: options, caller: caller) else { return }
                registered.withLock { $0 = ids }
                if Task.isCancelled { cancel(caller: ids.caller, of: ids.operation) }
            }
        } onCancel: {
            if let ids = registered.withLock({ $0 }) { cancel(caller: ids.caller, of: ids.operation) }
        }
        switch wake {
        case .finished(let result):
            return result
        case .deliver(let delivery):
            let result = deliver(delivery) ?? .failure(.invalidDownloadOperation)
            // A deliverer has left its download's callers, so a cancel did not complete it.
            if Task.isCancelled || delivery.deliverer?.isOwnLoadCancelled == true { return .failure(.cancelled) }
            return result
        }
    }

    /// Adds `caller` for `url` and starts what may start. Returns the request's and the
    /// caller's identifiers, or nil when the caller was completed already (a URL this downloader
    /// cannot request, or a downloader shut down).
    private func register(_ url: URL, options: ImageLoaderOptions, caller: DownloadCaller) -> (operation: UInt64, caller: UInt64)? {
        do {
            try HTTPRequestURL.check(url)
        } catch {
            caller.complete(.failure(error))
            return nil
        }
        let key = DownloadKey(url: url, ifNoneMatch: options.ifNoneMatch, ifModifiedSince: options.ifModifiedSince)
        let ids = startReadyOperations { state -> (operation: UInt64, caller: UInt64)? in
            state.isShutDown ? nil : state.add(caller, key: key, options: options)
        }
        guard let ids else {
            caller.complete(.failure(.invalidDownloadOperation))
            return nil
        }
        return ids
    }

    public func requestImage(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageLoadResult {
        try await image(for: url, options: options, events: events)
    }

    public func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult {
        try await data(for: url, options: options, events: events)
    }

    // MARK: Queue

    /// Holds the queue: queued requests wait until ``resume()``; running ones go on.
    public func suspend() {
        state.withLock { $0.isSuspended = true }
    }

    /// Lets queued requests start again.
    public func resume() {
        state.withLock { $0.isSuspended = false }
        startReadyOperations()
    }

    /// Whether the queue is held by ``suspend()``.
    public var isSuspended: Bool {
        state.withLock { $0.isSuspended }
    }

    /// How many requests are running now (SDWebImage's `currentDownloadCount`).
    public var currentDownloadCount: Int {
        state.withLock { $0.runningCount }
    }

    /// Cancels every caller of every download; each completes with ``WebImageError/cancelled``.
    public func cancelAllDownloads() {
        cancelEveryCaller(shuttingDown: false)
    }

    /// Cancels every download (each caller completes with ``WebImageError/cancelled`` before this
    /// returns) and shuts the HTTP client down. Work already under way for a cancelled download
    /// (a request modifier, a decode) may end after it returns, completing nobody. Later requests
    /// fail with ``WebImageError/invalidDownloadOperation``.
    public func shutdown() async throws {
        cancelEveryCaller(shuttingDown: true)
        state.withLock { $0.takeWatchdog() }?.cancel()
        await pinnedClients.shutdown()
        for proxied in proxiedClients.values { try await proxied.shutdown() }
        try await client.shutdown()
    }

    /// Removes every caller (and, `shuttingDown`, refuses later ones), cancels the started
    /// requests and completes the callers with ``WebImageError/cancelled``.
    private func cancelEveryCaller(shuttingDown: Bool) {
        let (callers, started) = state.withLock { $0.removeAllCallers(shuttingDown: shuttingDown) }
        for request in started { request.cancel() }
        for caller in callers { caller.complete(.failure(.cancelled)) }
    }

    // MARK: Header fields

    /// Sets header field `name` (any case) for every later request, or removes it when `value`
    /// is `nil` (SDWebImage's `setValue:forHTTPHeaderField:`).
    public func setValue(_ value: String?, forHTTPHeaderField name: String) {
        headers.withLock { headers in
            headers = headers.filter { $0.key.lowercased() != name.lowercased() }
            if let value { headers[name] = value }
        }
    }

    /// The value of header field `name` (any case) sent with every request.
    public func value(forHTTPHeaderField name: String) -> String? {
        headers.withLock { $0.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    // MARK: Internals

    /// Starts every request the queue allows now, on the calling thread (see ``start(_:)``).
    /// A request whose last caller cancels before it starts is cancelled as it starts.
    func startReadyOperations() {
        startReadyOperations(after: { _ in })
    }

    /// Applies `update` to the scheduler, then starts what the queue allows, under one lock
    /// (a download changes the scheduler and frees slots at the same moments). Returns what
    /// `update` returns.
    @discardableResult
    func startReadyOperations<Result>(after update: (inout DownloadScheduler) -> Result) -> Result {
        var started: [DownloadRequest] = []
        let result = state.withLock { state in
            let result = update(&state)
            started = state.takeStartable()
            // Rare (once per busy spell), so made in the lock, where only one can be made.
            if state.needsWatchdog { state.setWatchdog(makeIdleWatchdog()) }
            return result
        }
        // Outside the lock: an exchange that fails at once comes back for it.
        for download in started { start(download) }
        return result
    }

    /// The rounds of the idle watchdog per timeout.
    private static let watchdogRoundsPerTimeout = 4

    /// The task that fails silent requests: every quarter of the timeout it cancels, as timed
    /// out, the running requests that made no progress in the last four rounds. So a request
    /// costs no timer of its own (AsyncHTTPClient's read timeout re-arms one per read, its
    /// deadline one per request), and no lock or clock reading per body part until a caller
    /// with events joins; a silence is caught between one and one and a quarter timeouts after
    /// the last byte (or the start). It ends when no request is running; the next request to
    /// start starts it again. There is never more than one, since each of its looks counts as a
    /// round.
    private func makeIdleWatchdog() -> Task<Void, Never> {
        let idle = configuration.effectiveTimeout
        let whole = configuration.wholeDownloadTimeout.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        // Rounds a quarter of the shorter limit long; each limit is a whole number of rounds.
        let round = min(idle, whole ?? idle) / Double(Self.watchdogRoundsPerTimeout)
        let quietRounds = Int((idle / round).rounded(.up))
        let wholeRounds = whole.map { Int(($0 / round).rounded(.up)) }
        return Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .nanoseconds(Int64(round * 1_000_000_000)))
                guard let self, !Task.isCancelled else { return }
                let (late, keepWatching) = state.withLock {
                    $0.timeOutRequests(afterQuietRounds: quietRounds, orRounds: wholeRounds)
                }
                for request in late { request.cancel() }
                if !keepWatching { return }
            }
        }
    }

    private func cancel(caller: UInt64, of operation: UInt64) {
        let (removed, request) = state.withLock { $0.removeCaller(caller, of: operation) }
        request?.cancel()
        removed?.complete(.failure(.cancelled))
    }

    /// The client configuration of `configuration`, through `proxy` when given.
    static func clientConfiguration(for configuration: HTTPImageDownloader.Configuration, tracesItself: Bool = false,
                                    proxy: HTTPProxy? = nil) -> HTTPClient.Configuration {
        let timeout = TimeAmount.nanoseconds(Int64(configuration.effectiveTimeout * 1_000_000_000))
        var client = HTTPClient.Configuration()
        // The downloader follows redirects itself, each checked first (see `RedirectTrail`).
        client.redirectConfiguration = .disallow
        // No read timeout: the downloader's idle watchdog bounds silences instead, without a
        // timer re-armed on every read.
        client.timeout = HTTPClient.Configuration.Timeout(connect: timeout)
        let idle = max(0, configuration.connectionIdleTimeout)
        client.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .nanoseconds(Int64(idle * 1_000_000_000)),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, configuration.maxConcurrentDownloads))
        // No keep-alive: a connection serves one request, then closes.
        if idle == 0 { client.maximumUsesPerConnection = 1 }
        // A refused connection fails at once (a network error), as NSURLSession's does,
        // instead of being retried until the timeout.
        client.connectionPool.retryConnectionEstablishment = false
        client.decompression = .disabled
        // Without a tracer installed (InstrumentationSystem's no-op one), AsyncHTTPClient would
        // still build every request's span attributes for nothing: tell it there is none. The
        // tracer is read when the downloader is made, as AsyncHTTPClient reads it. A downloader
        // given a tracer makes its own spans (`fetchTraced`), parented where its caller was.
        if tracesItself || client.tracing.tracer is NoOpTracer { client.tracing.tracer = nil }
        if let proxy {
            client.proxy = .server(host: proxy.host, port: proxy.port,
                                   authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
        }
        if configuration.allowInvalidSSLCertificates {
            client.tlsConfiguration = Self.unverifiedTLS
        } else if configuration.trustedCertificates != nil || configuration.clientCertificate != nil {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let trusted = configuration.trustedCertificates { tls.trustRoots = .certificates(trusted) }
            if let identity = configuration.clientCertificate {
                tls.certificateChain = identity.chain.map { .certificate($0) }
                tls.privateKey = .privateKey(identity.privateKey)
            }
            client.tlsConfiguration = tls
        }
        return client
    }

    /// A client TLS configuration that accepts any certificate.
    static var unverifiedTLS: TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        return tls
    }
}
