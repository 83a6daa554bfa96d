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
        if isRefused(request.url, options: request.options) { throw .failedURL }
        return try await dataInFlight.value(for: request.workKey, events: events) { [self] events async throws(WebImageError) in
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
        let url = request.url, options = request.options
        if let data = await request.queryOriginalData() { return ImageDataResult(data: data, source: .disk, url: url) }
        if options.contains(.fromCacheOnly) || !(shouldDownload?(url) ?? true) { throw .notInCache }
        do {
            let result = try await request.downloadData(events: events)
            if Self.retriesFailedURLs(options) { failedURLs.remove(url) }
            return result
        } catch let error as WebImageError {
            if request.loader.shouldBlockFailedURL(url, error: error) { failedURLs.insert(url) }
            throw Task.isCancelled ? .cancelled : error
        } catch {
            throw Task.isCancelled || error is CancellationError
                ? .cancelled : .network(NetworkFailure(.other("\(error)"), cause: String(reflecting: error)))
        }
    }
}
