import Foundation
import Locking

/// Decoded images in memory over their encoded bytes on disk: SDImageCache's role.
///
/// A query looks in memory first (synchronously, under a lock); on a miss it reads the disk on
/// the cache's I/O executor, decodes off the caller's task, and back-fills memory. Stores put
/// the image in memory at once and its bytes on disk: the original download when given,
/// otherwise what the serializer or an encoder makes.
public final class ImageCache: ImageCaching {
    /// The memory tier, keyed by cache key, charged by ``Image/memoryCost``.
    public let memory: MemoryCache<String, Image>
    /// The disk tier.
    public let disk: DiskCache
    /// The coders that decode disk bytes and encode images that come without bytes.
    public let coders: ImageCoders
    let io = BlockingIO(label: "WebImage.ImageCache.io")

    /// A cache over the given tiers.
    /// - Parameters:
    ///   - memory: the memory tier; by default an LRU limited to an eighth of physical memory.
    ///   - disk: the disk tier; by default the `default` namespace under `~/.cache/webimage`.
    ///   - coders: how to decode and encode; ``ImageCoders/shared`` by default.
    public init(memory: MemoryCache<String, Image> = MemoryCache(), disk: DiskCache = DiskCache(),
                coders: ImageCoders = .shared) {
        self.memory = memory
        self.disk = disk
        self.coders = coders
    }

    /// A cache whose disk tier is the namespace `namespace` under the default folder.
    public convenience init(namespace: String, coders: ImageCoders = .shared) {
        self.init(disk: DiskCache(namespace: namespace), coders: coders)
    }

    public func imageFromMemory(forKey key: String) -> Image? {
        memory.value(forKey: key)
    }

    /// The bytes stored on disk for `key`, read on the calling thread.
    public func diskData(forKey key: String) -> Data? {
        disk.data(forKey: key)
    }

    /// Looks `key` up. With a thumbnail size in the decode options, memory is searched and
    /// back-filled under the thumbnail's key (`key` with SDWebImage's thumbnail suffix), never
    /// under `key`, whose full-size image a plain query expects; the disk bytes of `key` are
    /// decoded small. With `firstFrameOnly`, an animation from memory comes back as its first frame.
    public func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult {
        let decode = options.decodeOptions
        let memoryKey = Self.memoryKey(key, decode)
        if options.cacheType.includesMemory, let image = memory.value(forKey: memoryKey) {
            let wantsData = options.queryMemoryData && options.cacheType.includesDisk
            let data = wantsData ? try await readDisk(sync: options.queryDiskDataSync) { $0.disk.data(forKey: key) } : nil
            return ImageCacheQueryResult(image: decode.firstFrameOnly ? image.firstFrame : image, data: data, cacheType: .memory)
        }
        guard options.cacheType.includesDisk else { return .miss }
        return try await readDisk(sync: options.queryDiskDataSync) { $0.diskHit(forKey: key, memoryKey: memoryKey, options: options) }
            ?? .miss
    }

    public func imageFromDisk(forKey key: String, options: ImageCacheQueryOptions) -> ImageCacheQueryResult? {
        guard options.cacheType.includesDisk else { return nil }
        return diskHit(forKey: key, memoryKey: Self.memoryKey(key, options.decodeOptions), options: options)
    }

    /// The image for `key` read from disk and decoded as `options` say, on the calling thread,
    /// and kept in memory under `memoryKey` when they store disk hits there.
    private func diskHit(forKey key: String, memoryKey: String, options: ImageCacheQueryOptions) -> ImageCacheQueryResult? {
        guard let data = disk.data(forKey: key), let image = decodeStored(data, forKey: key, options: options.decodeOptions)
        else { return nil }
        if options.cacheType.includesMemory && options.storesDiskHitsInMemory {
            memory.setValue(image, forKey: memoryKey, cost: image.memoryCost)
        }
        return ImageCacheQueryResult(image: image, data: data, cacheType: .disk)
    }

    /// The key a decode of `key` with `decode` is kept under in memory: a thumbnail's own.
    private static func memoryKey(_ key: String, _ decode: ImageDecodeOptions) -> String {
        decode.thumbnailPixelSize.map { CacheKey.thumbnailed(key, $0, preserveAspectRatio: decode.preserveAspectRatio) } ?? key
    }

    /// The bytes on disk for `key`, read on the cache's I/O executor, not decoded.
    public func diskImageData(forKey key: String) async -> Data? {
        try? await io.run { [disk] in disk.data(forKey: key) }
    }

    /// Runs `read` on the I/O executor (or inline for `queryDiskDataSync`), unless the task is
    /// cancelled before the read starts; once started, the read finishes.
    private func readDisk<T: Sendable>(sync: Bool, _ read: @escaping @Sendable (ImageCache) throws -> T) async throws -> T {
        try Task.checkCancellation()
        if sync { return try read(self) }
        let cancelled = Atomic<Bool>(false)
        return try await withTaskCancellationHandler {
            try await io.run { [self] in
                if cancelled.load(ordering: .acquiring) { throw CancellationError() }
                return try read(self)
            }
        } onCancel: {
            cancelled.store(true, ordering: .releasing)
        }
    }

    /// Decodes bytes read from disk. Bytes that no longer decode (damaged outside the cache)
    /// are removed, and the query misses rather than failing.
    private func decodeStored(_ data: Data, forKey key: String, options: ImageDecodeOptions) -> Image? {
        do {
            return try coders.decode(data, options: options)
        } catch {
            disk.removeData(forKey: key)
            return nil
        }
    }

    public func store(_ image: Image?, data: Data?, forKey key: String, to cacheType: ImageCacheType = .all,
                      serializer: ImageCacheSerializer? = nil) async throws {
        if cacheType.includesMemory, let image {
            memory.setValue(image, forKey: key, cost: image.memoryCost)
        }
        guard cacheType.includesDisk else { return }
        try await io.run { [self] in
            guard let bytes = try coders.cacheBytes(for: image, data: data, key: key, serializer: serializer) else { return }
            try disk.store(bytes, forKey: key)
        }
    }

    public func remove(forKey key: String, from cacheType: ImageCacheType = .all) async {
        if cacheType.includesMemory { _ = memory.removeValue(forKey: key) }
        if cacheType.includesDisk { _ = try? await io.run { [disk] in disk.removeData(forKey: key) } }
    }

    public func containsImage(forKey key: String, in cacheType: ImageCacheType = .all) async -> ImageCacheType {
        if cacheType.includesMemory, memory.contains(key) { return .memory }
        if cacheType.includesDisk, (try? await io.run({ [disk] in disk.containsData(forKey: key) })) == true {
            return .disk
        }
        return .none
    }

    public func clear(_ cacheType: ImageCacheType = .all) async {
        if cacheType.includesMemory { memory.removeAll() }
        if cacheType.includesDisk { _ = try? await io.run { [disk] in disk.removeAll() } }
    }
}

extension ImageCache {
    /// The validators kept as the disk entry's extended data.
    public func validators(forKey key: String) async -> HTTPValidators? {
        let stored: Data?? = try? await io.run { [disk] in disk.extendedData(forKey: key) }
        guard let data = stored ?? nil else { return nil }
        return try? JSONDecoder().decode(HTTPValidators.self, from: data)
    }

    /// Keeps `validators` as the disk entry's extended data (the entry must exist).
    public func setValidators(_ validators: HTTPValidators?, forKey key: String) async {
        let data = validators.flatMap { try? JSONEncoder().encode($0) }
        _ = try? await io.run { [disk] in try disk.setExtendedData(data, forKey: key) }
    }

    /// The bytes first, then the validators as their extended data (which needs the entry).
    public func storeData(_ data: Data, validators: HTTPValidators?, forKey key: String) async {
        try? await store(nil, data: data, forKey: key, to: .disk, serializer: nil)
        await setValidators(validators, forKey: key)
    }
}
