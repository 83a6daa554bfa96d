import Foundation
import Logging

/// The stages of a load that the request runs: the cache query, the download (load, decode,
/// transform) and the store.
extension ImageRequest {
    /// The cached image, or nil on a miss (or when the options skip the cache).
    func queryCache() async throws -> ImageResult? {
        guard queryCacheType != .none else { return nil }
        let query = ImageCacheQueryOptions(
            cacheType: queryCacheType, decodeOptions: decodeOptions,
            queryMemoryData: options.contains(.queryMemoryData), queryDiskDataSync: options.contains(.queryDiskDataSync))
        let found = try await cache.query(forKey: keys.image, options: query)
        guard let image = found.image else { return nil }
        return ImageResult(image: image, data: found.data, source: found.cacheType == .memory ? .memory : .disk, url: url)
    }

    /// Loads, transforms and stores the image.
    func download(validators: HTTPValidators?, events: ImageManagerEventHandler?) async throws -> ImageResult {
        var forward: ImageLoadingEventHandler?
        if let events {
            forward = { event in
                switch event {
                case .progress(let progress): events(.progress(progress))
                case .partialImage(let image): events(.partialImage(image))
                }
            }
        }
        let loaded = try await loader.requestImage(for: url, options: loaderOptions(validators), events: forward)
        try Task.checkCancellation()
        var image = loaded.image
        var transformed = false
        if let transformer, !image.isAnimated || options.contains(.transformAnimatedImage),
           let output = transformer.transform(image, forKey: keys.image) {
            image = output
            transformed = true
        }
        try await store(image, original: loaded, transformed: transformed)
        // As SDWebImage: the downloaded bytes are not the transformed image's, so none are given.
        return ImageResult(image: image, data: transformed ? nil : loaded.data, source: loadedSource, url: url)
    }

    /// Where a load (not a cache hit) of ``url`` comes from: the scheme says which loader read it.
    private var loadedSource: ImageSource {
        if url.isFileURL { return .file }
        return url.scheme?.lowercased() == "data" ? .data : .network
    }

    private func loaderOptions(_ validators: HTTPValidators?) -> ImageLoaderOptions {
        ImageLoaderOptions(
            priority: priority, decodeOptions: decodeOptions, coders: coders,
            progressive: options.contains(.progressiveLoad),
            requestModifier: context.requestModifier, responseModifier: context.responseModifier,
            decryptor: context.decryptor, ifNoneMatch: validators?.etag, ifModifiedSince: validators?.lastModified,
            allowInvalidSSLCertificates: options.contains(.allowInvalidSSLCertificates),
            handleCookies: options.contains(.handleCookies))
    }

    /// Memory at once; disk awaited with `waitStoreCache`, in the background otherwise. A disk
    /// store that fails (read-only folder, full disk) is logged and does not fail the load: the
    /// image is in hand, and the disk cache never keeps a partial file.
    private func store(_ image: Image, original: ImageLoadResult, transformed: Bool) async throws {
        let type = storeCacheType
        let validators = HTTPValidators(etag: original.response.etag, lastModified: original.response.lastModified)
        if type.includesMemory {
            try await cache.store(image, data: nil, forKey: keys.image, to: .memory, serializer: nil)
        }
        let cache = cache, key = keys.image, originalKey = keys.original, serializer = context.cacheSerializer, logger = logger
        let originalType = originalStoreCacheType
        let writeDisk: @Sendable () async -> Void = {
            do {
                if transformed {
                    if originalType != .none {
                        try await cache.store(original.image, data: original.data, forKey: originalKey, to: originalType,
                                              serializer: serializer)
                    }
                    if type.includesDisk {
                        try await cache.store(image, data: nil, forKey: key, to: .disk, serializer: serializer)
                    }
                } else if type.includesDisk {
                    try await cache.store(image, data: original.data, forKey: key, to: .disk, serializer: serializer)
                }
                if type.includesDisk, let validators { await cache.setValidators(validators, forKey: key) }
            } catch {
                logger.warning("could not store the image on disk", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
        if options.contains(.waitStoreCache) {
            await writeDisk()
        } else {
            Task.detached { await writeDisk() }
        }
    }
}
