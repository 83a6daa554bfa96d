import Foundation

/// The flow of a load after its request is built: the memory hit, the failed-URL list, then
/// the stages (cache query → download → store), shared with every identical load under way.
extension ImageManager {
    /// The whole flow. `events` receives what happens before the result.
    func load(_ request: ImageRequest, events: ImageLoadingEventHandler?) async throws(WebImageError) -> ImageResult {
        if request.hasURL,
           let hit = memoryHit(for: request.url, key: request.keys.image, policy: request.policy, context: request.context) {
            return hit
        }
        return try await loadAfterMemoryMiss(request, events: events)
    }

    /// The flow after the memory cache missed, for callers that asked it themselves.
    func loadAfterMemoryMiss(_ request: ImageRequest, events: ImageLoadingEventHandler?) async throws(WebImageError)
        -> ImageResult {
        guard request.hasURL else { throw .invalidURL("no URL") }
        if isRefused(request.url, policy: request.policy) { throw .failedURL }
        return try await inFlight.value(for: LoadPolicy.workKey(of: request), events: events) { [self] events async throws(WebImageError) in
            try await runStages(of: request, events: events)
        }.value
    }

    /// Cache query, then (unless the cache answered) download, transform and store.
    private func runStages(of request: ImageRequest, events: ImageLoadingEventHandler?) async throws(WebImageError) -> ImageResult {
        let url = request.url, policy = request.policy
        do {
            var cached: ImageResult?
            if let hit = try await queryCache(for: request) {
                guard policy.revalidates else { return hit }
                events?(.cachedImage(hit))
                cached = hit
            } else if !policy.revalidates, let made = try await makeFromCachedOriginal(for: request) {
                return made
            }
            if policy.cacheOnly || !(shouldDownload?(url) ?? true) {
                if let cached { return cached }
                throw WebImageError.notInCache
            }
            let validators = cached == nil ? nil : await request.cache.validators(forKey: request.keys.image)
            do {
                let result = try await download(request, validators: validators, events: events)
                if policy.retriesFailedURLs { failedURLs.remove(url) }
                return result
            } catch WebImageError.cacheNotModified where cached != nil {
                return ImageResult(image: cached!.image, data: cached!.data, source: .revalidated, url: url)
            } catch let error as WebImageError {
                if request.loader.shouldBlockFailedURL(url, error: error) { failedURLs.insert(url) }
                throw error
            }
        } catch let error as WebImageError {
            throw Task.isCancelled ? .cancelled : error
        } catch {
            throw Task.isCancelled || error is CancellationError
                ? .cancelled : .network(NetworkFailure(.other("\(error)"), cause: String(reflecting: error)))
        }
    }
}
