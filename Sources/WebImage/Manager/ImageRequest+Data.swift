import Foundation

/// The stages of a load of bytes (``ImageManager/data(for:options:context:events:)``): the
/// original's disk cache, then the loader without decoding, then the store of the original.
extension ImageRequest {
    /// The original's bytes from the disk tier of the cache of originals, or nil on a miss (or
    /// when the options look in no cache).
    func queryOriginalData() async -> Data? {
        guard queryCacheType != .none, originalQueryCacheType.includesDisk else { return nil }
        return await originalCache.diskImageData(forKey: keys.original)
    }

    /// Loads the bytes without decoding them and stores them on disk under the original's key,
    /// as a download stores an original (awaited with `waitStoreCache`).
    func downloadData(events: ImageLoadingEventHandler?) async throws -> ImageDataResult {
        let loaded = try await loader.requestData(for: url, options: loaderOptions(nil), events: events)
        try Task.checkCancellation()
        let originalCache = originalCache, key = keys.original, logger = logger
        let validators = HTTPValidators(etag: loaded.response.etag, lastModified: loaded.response.lastModified)
        let store = originalStoreCacheType.includesDisk
        let writeDisk: @Sendable () async -> Void = {
            guard store else { return }
            do {
                try await originalCache.store(nil, data: loaded.data, forKey: key, to: .disk, serializer: nil)
                await originalCache.setValidators(validators, forKey: key)
            } catch {
                logger.warning("could not store the bytes on disk", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
        await writeToDisk(writeDisk)
        return ImageDataResult(data: loaded.data, source: loadedSource, url: url)
    }
}
