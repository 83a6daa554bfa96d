import Foundation
import WebImage

/// Encoded results by canonical key, in three tiers: memory, the local disk and a cache shared
/// with other instances (a Redis tier, say).
///
/// A lookup asks memory → disk → shared; a hit below memory is written back to the tiers above
/// it (to the disk in the background, behind the requests, with the creation time the shared
/// cache kept: every instance answers one `Last-Modified`). A result made here goes to every
/// tier. A disk copy whose bytes no longer match the entity tag stored beside them is removed
/// and taken for a miss.
final class ResultCache: Sendable {
    /// Results by key, costing their bytes.
    private let memory: MemoryCache<String, ProcessedImage>
    /// Results kept across runs, with their validators as extended data.
    private let disk: DiskCache?
    /// Results shared with other instances: asked after the local disk, written after a result is made.
    let shared: (any ImageCaching)?
    /// Writes the shared cache's hits to the local disk after they are answered, one at a time,
    /// behind the requests (a file write costs more than the Redis read it saves next time), with
    /// at most 64 MiB of results waiting.
    private let writeBack = BackgroundWork(name: "WebImageServer write-back", limitBytes: 64 << 20)
    /// Where damaged disk copies and dropped write-backs are counted.
    private let metrics: ServerMetrics
    /// What the disk and shared keys start with: the server's encoder settings that differ
    /// from the defaults (``ServerConfiguration/OutputSettings/encodingTag``), so that results
    /// kept across a restart, or shared by instances configured otherwise, are never answered
    /// for settings that would encode them otherwise. Memory, this process's own, needs none.
    private let keptKeyPrefix: String

    /// A cache holding up to `memoryLimitBytes` of results in memory, and the tiers given, their
    /// keys tagged with `encodingTag`.
    init(memoryLimitBytes: Int, disk: DiskCache?, shared: (any ImageCaching)?, metrics: ServerMetrics, encodingTag: String = "") {
        keptKeyPrefix = encodingTag.isEmpty ? "" : encodingTag + "|"
        memory = MemoryCache(costLimit: memoryLimitBytes)
        self.disk = disk
        self.shared = shared
        self.metrics = metrics
    }

    /// The result in memory under `key`, answered at once, without I/O.
    func inMemory(forKey key: String) -> ProcessedImage? {
        memory.value(forKey: key)
    }

    /// The result under `key` from the disk, else from the shared cache (created when it says,
    /// else `now`), written back to the tiers above; nil when both miss. Write-backs wait while
    /// such lookups go on.
    func below(forKey key: String, now: Date) async -> ProcessedImage? {
        writeBack.noteActivity()
        let kept = keptKeyPrefix + key
        if let onDisk = onDisk(forKey: kept) {
            keepInMemory(onDisk, forKey: key)
            return onDisk
        }
        guard let shared = await sharedResult(forKey: kept, now: now) else { return nil }
        keepInMemory(shared, forKey: key)
        if disk != nil, !writeBack.enqueue(holding: shared.body.readableBytes, { [self] in keepOnDisk(shared, forKey: kept) }) {
            metrics.writeBacksDropped.increment()
        }
        return shared
    }

    /// Keeps `image`, made here, in every tier: memory and disk at once, then the shared cache,
    /// awaited: the next instance asked finds it, and a slow shared tier slows the makers
    /// (within its timeouts) rather than piling up writes.
    func store(_ image: ProcessedImage, forKey key: String) async {
        keepInMemory(image, forKey: key)
        keepOnDisk(image, forKey: keptKeyPrefix + key)
        await share(image, forKey: keptKeyPrefix + key)
    }

    /// Keeps `image` in the memory cache, costing its bytes.
    private func keepInMemory(_ image: ProcessedImage, forKey key: String) {
        memory.setValue(image, forKey: key, cost: image.body.readableBytes)
    }

    /// Keeps `image` on disk with its validators as the entry's extended data: the one path by
    /// which results made here and results written back from the shared cache reach the disk.
    private func keepOnDisk(_ image: ProcessedImage, forKey key: String) {
        guard let disk else { return }
        do {
            try disk.store(image.data, forKey: key)
            try disk.setExtendedData(StoredResultValidators(of: image).extendedData, forKey: key)
        } catch {
            // The result is served from memory all the same; the disk only saves remaking it later.
        }
    }

    /// The result the disk holds for `key`, when its bytes are whole: their entity tag is the
    /// one stored beside them when they were written. A copy that does not match — cut short by
    /// a power loss, since writes are not synced — is removed and taken for a miss, so that it
    /// is made again rather than served with a strong `ETag`; one with no tag to check it by is
    /// a miss too.
    private func onDisk(forKey key: String) -> ProcessedImage? {
        guard let disk, let data = disk.data(forKey: key) else { return nil }
        // No tag yet: written a moment ago (the tag follows the bytes), or by a version that kept
        // none or tagged with MD5; a miss, made again and stored over it, but not damage to remove.
        guard let stored = disk.extendedData(forKey: key).flatMap(StoredResultValidators.init(extendedData:)),
              let etag = stored.etag, etag.hasPrefix(ProcessedImage.etagPrefix)
        else { return nil }
        guard etag == ProcessedImage.etag(of: data) else {
            disk.removeData(forKey: key)
            metrics.damagedResults.increment()
            return nil
        }
        return ProcessedImage(data: data, format: ImageFormat(detecting: data), source: .disk, created: stored.created, etag: etag,
                              lifetime: stored.lifetime)
    }

    /// Keeps `image` in the shared cache with its creation time, as the validators'
    /// `Last-Modified`, so that an instance finding the bytes finds when they were made too (an
    /// object storage tier writes both in one request, in the background).
    private func share(_ image: ProcessedImage, forKey key: String) async {
        await shared?.storeData(image.data, validators: HTTPValidators(etag: nil, lastModified: HTTPDate.string(from: image.created)),
                                forKey: key)
    }

    /// The result the shared cache holds for `key`, when its bytes are of a known image format
    /// (anything else is taken for a miss and made again), created when its validators'
    /// `Last-Modified` says (`now` when the shared cache keeps none).
    private func sharedResult(forKey key: String, now: Date) async -> ProcessedImage? {
        guard let (data, validators) = await shared?.diskImageDataAndValidators(forKey: key) else { return nil }
        let format = ImageFormat(detecting: data)
        guard format != .undefined else { return nil }
        let created = validators?.lastModified.flatMap(HTTPDate.date(from:))
        return ProcessedImage(data: data, format: format, source: .shared, created: created ?? now)
    }
}
