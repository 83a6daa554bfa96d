import Foundation
import Logging

/// The stages of a load that the request runs: the cache query, the download (load, decode,
/// transform) and the store.
extension ImageRequest {
    /// The cached image, or nil on a miss (or when the options skip the cache).
    func queryCache() async throws -> ImageResult? {
        guard queryCacheType != .none else { return nil }
        let found = try await cache.query(forKey: keys.image, options: cacheQuery)
        guard let image = found.image else { return nil }
        return ImageResult(image: image, data: found.data, source: found.cacheType == .memory ? .memory : .disk, url: url)
    }

    /// The disk hit, read and decoded on the calling thread, for a load with `queryDiskDataSync`
    /// whose cache can answer so (SDWebImage's synchronous disk query): nil otherwise, or on a
    /// miss, and the load goes on as usual. Not under `refreshCached`, which revalidates a hit.
    func diskHitNow() -> ImageResult? {
        guard hasURL, options.contains(.queryDiskDataSync), !options.contains(.refreshCached), queryCacheType.includesDisk,
              let found = cache.imageFromDisk(forKey: keys.image, options: cacheQuery), let image = found.image
        else { return nil }
        return ImageResult(image: image, data: found.data, source: .disk, url: url)
    }

    /// How the cache is asked for the image.
    private var cacheQuery: ImageCacheQueryOptions {
        ImageCacheQueryOptions(
            cacheType: queryCacheType, decodeOptions: decodeOptions,
            queryMemoryData: options.contains(.queryMemoryData), queryDiskDataSync: options.contains(.queryDiskDataSync),
            storesDiskHitsInMemory: storeCacheType.includesMemory)
    }

    /// The image made from the original in the cache, when the delivered image's own key
    /// missed (SDWebImage's original-cache step): the original's bytes decoded as this request
    /// decodes (a thumbnail, say), transformed and stored under the image's key. Nil when the
    /// image does not derive from an original, or the original is not cached either.
    func makeFromCachedOriginal() async throws -> ImageResult? {
        guard derivesFromOriginal, originalQueryCacheType != .none else { return nil }
        let query = ImageCacheQueryOptions(cacheType: originalQueryCacheType, decodeOptions: decodeOptions,
                                           queryDiskDataSync: options.contains(.queryDiskDataSync))
        let found = try await originalCache.query(forKey: keys.original, options: query)
        guard let original = found.image else { return nil }
        try Task.checkCancellation()
        let image = transformed(original)
        try await store(image, data: nil, original: nil, validators: nil)
        return ImageResult(image: image, data: nil, source: found.cacheType == .memory ? .memory : .disk, url: url)
    }

    /// Loads, transforms and stores the image.
    func download(validators: HTTPValidators?, events: ImageLoadingEventHandler?) async throws -> ImageResult {
        let loaded = try await loader.requestImage(for: url, options: loaderOptions(validators), events: events)
        try Task.checkCancellation()
        let image = transformed(loaded.image)
        let validators = HTTPValidators(etag: loaded.response.etag, lastModified: loaded.response.lastModified)
        // As SDWebImage: a thumbnail's or a transformed image's bytes are not the original's,
        // so the original goes under its own key and the result carries no bytes.
        if derivesFromOriginal {
            // A thumbnail is no original: only the bytes go under the original's key.
            let originalImage = keys.thumbnail == keys.original ? loaded.image : nil
            try await store(image, data: nil, original: (originalImage, loaded.data), validators: validators)
            return ImageResult(image: image, data: nil, source: loadedSource, url: url)
        }
        try await store(image, data: loaded.data, original: nil, validators: validators)
        return ImageResult(image: image, data: loaded.data, source: loadedSource, url: url)
    }

    /// `image` through the transformer, when there is one and it applies (animations only with
    /// `transformAnimatedImage`). A result that says no format of its own (a custom transformer
    /// making a new image) keeps the source's, and an animation its loop count, as SDWebImage
    /// copies them onto transformed images: the cache serialiser and callers still know what it is.
    private func transformed(_ image: Image) -> Image {
        guard let transformer, !image.isAnimated || options.contains(.transformAnimatedImage),
              var result = transformer.transform(image, forKey: keys.image)
        else { return image }
        if result.format == .undefined {
            result.format = image.format
            if result.isAnimated { result.loopCount = image.loopCount }
        }
        return result
    }

    /// Where a load (not a cache hit) of ``url`` comes from: the scheme says which loader read it.
    var loadedSource: ImageSource {
        if url.isFileURL { return .file }
        return url.scheme?.lowercased() == "data" ? .data : .network
    }

    func loaderOptions(_ validators: HTTPValidators?) -> ImageLoaderOptions {
        ImageLoaderOptions(
            priority: priority, decodeOptions: decodeOptions, coders: coders,
            progressive: options.contains(.progressiveLoad),
            requestModifier: context.requestModifier, responseModifier: context.responseModifier,
            decryptor: context.decryptor, ifNoneMatch: validators?.etag, ifModifiedSince: validators?.lastModified,
            allowInvalidSSLCertificates: options.contains(.allowInvalidSSLCertificates),
            handleCookies: options.contains(.handleCookies))
    }

    /// Memory at once; disk awaited with `waitStoreCache`, in the background otherwise: the
    /// image (with `data`, its bytes, when known) under its key, and the `original` (its image
    /// when it is one, and its bytes) under the original's key. A disk store that fails
    /// (read-only folder, full disk) is logged and does not fail the load: the image is in
    /// hand, and the disk cache never keeps a partial file.
    private func store(_ image: Image, data: Data?, original: (image: Image?, data: Data)?,
                       validators: HTTPValidators?) async throws {
        let type = storeCacheType
        if type.includesMemory {
            try await cache.store(image, data: nil, forKey: keys.image, to: .memory, serializer: nil)
        }
        let cache = cache, originalCache = originalCache, keys = keys, serializer = context.cacheSerializer, logger = logger
        let originalType = originalStoreCacheType
        let writeDisk: @Sendable () async -> Void = {
            do {
                if let original, originalType != .none {
                    try await originalCache.store(original.image, data: original.data, forKey: keys.original, to: originalType,
                                                  serializer: serializer)
                }
                if type.includesDisk {
                    try await cache.store(image, data: data, forKey: keys.image, to: .disk, serializer: serializer)
                    if let validators { await cache.setValidators(validators, forKey: keys.image) }
                }
            } catch {
                logger.warning("could not store the image on disk", metadata: ["key": "\(keys.image)", "error": "\(error)"])
            }
        }
        await writeToDisk(writeDisk)
    }

    /// Runs `write`, a disk store: awaited with `waitStoreCache`, else in the background, so
    /// that the load does not wait for the disk.
    func writeToDisk(_ write: @escaping @Sendable () async -> Void) async {
        if options.contains(.waitStoreCache) {
            await write()
        } else {
            Task.detached { await write() }
        }
    }
}
