import Foundation
import Locking
import WebImage

/// Fetches the bytes of sources and of thumbor's overlay images through the manager, not
/// decoded: from its caches, else downloaded, each address first checked by the
/// ``SourcePolicy``; downloads are measured in ``ServerMetrics``.
struct SourceFetcher: Sendable {
    /// Fetches the bytes (and keeps them), coalescing identical fetches.
    let manager: ImageManager
    /// Which sources are loaded, and the folder `local:///path` sources are read from.
    let sources: SourcePolicy
    /// Where lookups and downloads are counted and timed.
    let metrics: ServerMetrics

    /// The encoded images of `url`'s thumbor overlays (marks, nine-patches), in order, and of
    /// its pipelines' `watermark_url`s when they lay a watermark, each fetched as a source is (the same
    /// allowed sources, address policy, size limit and cache); a failure is
    /// ``ProcessingError/forWatermark``'s.
    func overlays(of url: ProcessingURL) async throws(ProcessingError) -> OverlayImages {
        var overlays = OverlayImages()
        do throws(ProcessingError) {
            for overlay in url.options.thumborOverlays {
                overlays.thumbor.append(try await fetch(overlay.url).data)
            }
            overlays.watermark = try await watermark(of: url.options)
            for step in url.options.chained { overlays.chained.append(try await watermark(of: step)) }
        } catch {
            throw error.forWatermark
        }
        return overlays
    }

    /// The bytes of `options`' `watermark_url` image when it lays a watermark, else nil.
    private func watermark(of options: ProcessingOptions) async throws(ProcessingError) -> Data? {
        guard options.watermark != nil, let address = options.watermarkURL else { return nil }
        return try await fetch(address).data
    }

    /// The bytes of the source at `address`, or at `fallback` when `address` is a local file
    /// that is missing or refused (thumbor's `file_loader_http_fallback`); downloaded again,
    /// not read from the manager's cache, when `fresh`.
    func fetch(_ address: URL, fallback: URL?, conditions: SourceConditions?, fresh: Bool = false) async throws(ProcessingError)
        -> ImageDataResult {
        guard let fallback else { return try await fetch(address, conditions: conditions, fresh: fresh) }
        do {
            return try await fetch(address, conditions: conditions, fresh: fresh)
        } catch .sourceNotFound, .sourceRefused {
            return try await fetch(fallback, conditions: conditions, fresh: fresh)
        }
    }

    /// The bytes of the source at `address`, not decoded: from the manager's cache, else
    /// downloaded (and stored there before the result is made: an instance asked next finds
    /// them), asking the origin with the client's `conditions` when given (its 304 throws
    /// ``ProcessingError/sourceNotModified(_:)`` with what it said). A download is measured from
    /// the load's progress: the time until its last byte arrived and the bytes received. When
    /// `fresh`, the cache is not asked (the bytes downloaded replace what it kept).
    func fetch(_ address: URL, conditions: SourceConditions? = nil, fresh: Bool = false) async throws(ProcessingError) -> ImageDataResult {
        let source = try sources.resolve(address)
        let started = ContinuousClock.now
        let received = Mutex<(bytes: Int, at: ContinuousClock.Instant)?>(nil)
        // A source that failed is asked again every time (`retryFailed`): the manager's failed-URL
        // list would answer an upload that was not finished yet, or a truncated body, with the
        // same failure until restart, where the origin's answer now is what a client needs.
        let result: ImageDataResult
        var context = ImageContext()
        let answer = conditions?.ask(in: &context)
        do {
            let options: WebImageOptions = fresh ? [.waitStoreCache, .retryFailed, .fromLoaderOnly] : [.waitStoreCache, .retryFailed]
            result = try await manager.data(for: source, options: options, context: context) { event in
                if case .progress(let progress) = event { received.withLock { $0 = (progress.receivedBytes, .now) } }
            }
        } catch .cacheNotModified where answer != nil {
            throw .sourceNotModified(answer?.response.map(OriginHeaders.init) ?? OriginHeaders())
        } catch {
            throw ProcessingError(loading: error, of: source)
        }
        if result.source == .network, let received = received.withLock({ $0 }) {
            metrics.downloadDuration.record(duration: started.duration(to: received.at))
            metrics.sourceBytes.increment(by: received.bytes)
        }
        metrics.countSource(from: result.source)
        return result
    }
}
