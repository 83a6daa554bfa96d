import Foundation

/// The store stage of a load: memory at once, the disk awaited or in the background.
extension ImageManager {
    /// Memory at once; disk awaited with `waitStoreCache`, in the background otherwise: the
    /// image (with `data`, its bytes, when known) under its key, and the `original` (its image
    /// when it is one, and its bytes) under the original's key, in the tiers `request`'s policy
    /// names. A disk store that fails (read-only folder, full disk) is logged and does not fail
    /// the load: the image is in hand, and the disk cache never keeps a partial file.
    func store(_ image: Image, data: Data?, original: (image: Image?, data: Data)?, validators: HTTPValidators?,
               for request: ImageRequest) async throws {
        let policy = request.policy
        let type = policy.storeCacheType
        if type.includesMemory {
            try await request.cache.store(image, data: nil, forKey: request.keys.image, to: .memory, serializer: nil)
        }
        let cache = request.cache, originalCache = request.originalCache, keys = request.keys
        let serializer = request.context.cacheSerializer ?? Self.encodingSerializer(for: request), logger = logger
        let originalType = policy.originalStoreCacheType
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
        await writeToDisk(writeDisk, policy: policy)
    }

    /// The serializer of `request`'s ``ImageContext/imageEncodeOptions`` and
    /// ``ImageContext/imageEncodeFormat``: downloaded bytes are kept as they are, an image without
    /// them is encoded with those options in that format (the cache's own choice without one); nil
    /// when the context sets neither.
    static func encodingSerializer(for request: ImageRequest) -> ImageCacheSerializer? {
        let context = request.context
        guard context.imageEncodeOptions != nil || context.imageEncodeFormat != nil else { return nil }
        let coders = request.coders, options = context.imageEncodeOptions ?? ImageEncodeOptions(), format = context.imageEncodeFormat
        return { image, data, _ in
            if let data { return data }
            return try? coders.encode(image, as: format ?? coders.cacheFormat(for: image), options: options)
        }
    }

    /// Runs `write`, a disk store: awaited when `policy` waits for disk stores
    /// (`waitStoreCache`), else in the background, so that the load does not wait for the disk.
    func writeToDisk(_ write: @escaping @Sendable () async -> Void, policy: LoadPolicy) async {
        if policy.waitsForDiskStore {
            await write()
        } else {
            Task.detached { await write() }
        }
    }
}
