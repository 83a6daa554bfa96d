import Foundation

/// The cache stage of a load: the delivered image under its key, else made from the cached
/// original.
extension ImageManager {
    /// The cached image of `request`, or nil on a miss (or when its policy skips the cache).
    func queryCache(for request: ImageRequest) async throws -> ImageResult? {
        let policy = request.policy
        guard policy.queryCacheType != .none else { return nil }
        let found = try await request.cache.query(forKey: request.keys.image,
                                                  options: policy.imageQuery(decodeOptions: request.decodeOptions))
        guard let image = found.image else { return nil }
        return ImageResult(image: image, data: found.data, source: found.cacheType == .memory ? .memory : .disk, url: request.url)
    }

    /// The disk hit of `request`, read and decoded on the calling thread, when its policy
    /// answers so and its cache can (``ImageCaching/imageFromDisk(forKey:options:)``): nil
    /// otherwise, or on a miss, and the load goes on as usual.
    func diskHitNow(for request: ImageRequest) -> ImageResult? {
        let policy = request.policy
        guard request.hasURL, policy.answersDiskHitNow, !isRefused(request.url, policy: policy),
              let found = request.cache.imageFromDisk(forKey: request.keys.image,
                                                      options: policy.imageQuery(decodeOptions: request.decodeOptions)),
              let image = found.image
        else { return nil }
        return ImageResult(image: image, data: found.data, source: .disk, url: request.url)
    }

    /// The image of `request` made from the original in the cache, when the delivered image's
    /// own key missed (SDWebImage's original-cache step): the original's bytes decoded as this
    /// request decodes (a thumbnail, say), transformed and stored under the image's key. Nil
    /// when the image does not derive from an original, or the original is not cached either.
    func makeFromCachedOriginal(for request: ImageRequest) async throws -> ImageResult? {
        let policy = request.policy
        guard request.derivesFromOriginal, policy.originalQueryCacheType != .none else { return nil }
        let found = try await request.originalCache.query(forKey: request.keys.original,
                                                          options: policy.originalQuery(decodeOptions: request.decodeOptions))
        guard let original = found.image else { return nil }
        try Task.checkCancellation()
        let image = transformed(original, for: request)
        try await store(image, data: nil, original: nil, validators: nil, for: request)
        return ImageResult(image: image, data: nil, source: found.cacheType == .memory ? .memory : .disk, url: request.url)
    }
}
