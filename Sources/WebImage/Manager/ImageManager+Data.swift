import Foundation

extension ImageManager {
    /// The bytes of the image at `url`, not decoded (Nuke's `ImagePipeline.data(for:)`): for a
    /// caller that decodes them itself, later or in slots of its own — `webimage serve`
    /// downloads outside its processing slots and decodes inside them, so that a slow origin
    /// holds no slot.
    ///
    /// The bytes come from the disk tier of the cache of originals (the context's
    /// `originalImageCache`, else its cache), under the original's key, where a load of the
    /// image keeps them too; else from the loader, without a decode, and are stored there (the
    /// request's `originalStoreCacheType`, its disk part; awaited with `waitStoreCache`).
    /// `fromLoaderOnly` skips the cache, `fromCacheOnly` and ``shouldDownload`` stop before the
    /// loader (``WebImageError/notInCache``), and the failed-URL list applies as to images.
    /// Identical concurrent calls share one load; `events` receives its progress.
    public func data(for url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext(),
                     events: ImageLoadingEventHandler? = nil) async throws(WebImageError) -> ImageDataResult {
        let request = request(for: try validated(url), options: options, context: context)
        guard request.hasURL else { throw .invalidURL("no URL") }
        if isRefused(request.url, policy: request.policy) { throw .failedURL }
        return try await dataInFlight.value(for: LoadPolicy.workKey(of: request), events: events) { [self] events async throws(WebImageError) in
            try await runDataStages(of: request, events: events)
        }.value
    }

    /// Removes the bytes ``data(for:options:context:events:)`` keeps for `url` (the original's,
    /// from the disk tier of the cache of originals): for a caller that found them unusable
    /// (``ImageCodingError/isUnusableData``), so that the next load asks the loader again
    /// instead of failing on the same bytes.
    public func removeData(for url: URL, context: ImageContext = ImageContext()) async {
        let request = request(for: url, context: context)
        await request.originalCache.remove(forKey: request.keys.original, from: .disk)
    }

    /// The disk query, then (unless it answered) the loader and the store.
    private func runDataStages(of request: ImageRequest, events: ImageLoadingEventHandler?) async throws(WebImageError)
        -> ImageDataResult {
        let url = request.url, policy = request.policy
        if let data = await queryOriginalData(for: request) { return ImageDataResult(data: data, source: .disk, url: url) }
        if policy.cacheOnly || !(shouldDownload?(url) ?? true) { throw .notInCache }
        do {
            let result = try await downloadData(request, events: events)
            if policy.retriesFailedURLs { failedURLs.remove(url) }
            return result
        } catch let error as WebImageError {
            if request.loader.shouldBlockFailedURL(url, error: error) { failedURLs.insert(url) }
            throw Task.isCancelled ? .cancelled : error
        } catch {
            throw Task.isCancelled || error is CancellationError
                ? .cancelled : .network(NetworkFailure(.other("\(error)"), cause: String(reflecting: error)))
        }
    }

    /// The original's bytes from the disk tier of the cache of originals, or nil on a miss (or
    /// when the policy looks in no cache).
    private func queryOriginalData(for request: ImageRequest) async -> Data? {
        guard request.policy.queryCacheType != .none, request.policy.originalQueryCacheType.includesDisk else { return nil }
        return await request.originalCache.diskImageData(forKey: request.keys.original)
    }

    /// Loads the bytes without decoding them and stores them on disk under the original's key,
    /// as a download stores an original (awaited with `waitStoreCache`).
    private func downloadData(_ request: ImageRequest, events: ImageLoadingEventHandler?) async throws -> ImageDataResult {
        let loaded = try await request.loader.requestData(for: request.url, options: request.loaderOptions(nil), events: events)
        try Task.checkCancellation()
        let originalCache = request.originalCache, key = request.keys.original, logger = logger
        let validators = HTTPValidators(etag: loaded.response.etag, lastModified: loaded.response.lastModified)
        let store = request.policy.originalStoreCacheType.includesDisk
        let writeDisk: @Sendable () async -> Void = {
            guard store else { return }
            do {
                try await originalCache.store(nil, data: loaded.data, forKey: key, to: .disk, serializer: nil)
                await originalCache.setValidators(validators, forKey: key)
            } catch {
                logger.warning("could not store the bytes on disk", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
        await writeToDisk(writeDisk, policy: request.policy)
        return ImageDataResult(data: loaded.data, source: request.loadedSource, url: request.url, response: loaded.response)
    }
}
