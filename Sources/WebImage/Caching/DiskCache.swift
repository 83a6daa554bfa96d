#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Locking

/// A folder of files, one per key: SDDiskCache's role, with its file naming, so a folder
/// written by one can be read by the other.
///
/// Calls are synchronous and thread-safe; they do file I/O, so call them off the main thread
/// (the image cache runs them on an I/O executor). Writes go to a temporary file renamed into
/// place, so a reader never sees a torn file and a crash never leaves a half one behind.
///
/// The cache keeps an in-memory index of each entry's allocated size and access date, built by
/// one scan of the folder in the background at start-up and then kept current, so writes never
/// list the folder. Reads stamp the file's access time themselves (Linux is often mounted
/// `noatime`/`relatime`), which is what LRU trimming and access-date expiry rely on. A store
/// that takes the total past ``Configuration/maxSize`` starts a background trim; a background
/// pass every ``Configuration/autoTrimInterval`` removes expired entries and trims.
/// Reads do not check expiry, as in SDWebImage: ``removeExpired()`` does.
public final class DiskCache: Sendable {
    /// The folder the cache writes.
    public let directory: URL
    /// The limits and options it was made with.
    public let configuration: Configuration

    /// `directory` as a path.
    let path: String
    /// The entries' sizes and access dates. File renames and deletions happen under this lock
    /// too, so a trim never deletes a file stored after it chose its victims.
    let index = Mutex(DiskCacheIndex())
    /// Taken around every temporary file and its rename (a store's, a sidecar's): concurrent
    /// creations and renames in one folder wait for its directory lock in the kernel by
    /// spinning, a core burnt for each waiting writer, where this semaphore's waiters sleep (a
    /// `Mutex` spins in the kernel too). Taken before ``index``.
    let storing = DispatchSemaphore(value: 1)
    /// Where start-up scans, timed maintenance and size trims run: never the caller's thread.
    let maintenanceQueue = DispatchQueue(label: "WebImage.DiskCache.maintenance", qos: .utility)
    /// The entry names of recently used keys.
    let recentNames: RecentEntryNames

    /// A cache over `directory`, created (and tagged with a `CACHEDIR.TAG`) on the first store
    /// if missing. Starts the background start-up pass (index scan, expiry, trim, clean-up of
    /// abandoned temporary files).
    ///
    /// An existing folder is taken when it is tagged, empty, or holds only files a cache could
    /// have written (a folder of an earlier WebImage or of SDWebImage, which gets tagged then).
    /// - Throws: ``DiskCacheError/unownedFolder(path:foreignFile:)`` for a folder that holds
    ///   other files, unless ``Configuration/adoptsExistingFolder``;
    ///   ``DiskCacheError/notAFolder(path:)``; ``DiskCacheError/io(operation:path:code:)`` when
    ///   the folder cannot be listed.
    public convenience init(directory: URL, configuration: Configuration = Configuration()) throws(DiskCacheError) {
        let path = directory.standardizedFileURL.path
        try CacheFolder.claim(path, adoptingExisting: configuration.adoptsExistingFolder)
        self.init(claimed: directory, path: path, configuration: configuration)
    }

    /// A cache in ``defaultDirectory(namespace:)``. That folder is WebImage's by its place, so
    /// it is never refused; the cache still touches only the files it could have written.
    public convenience init(namespace: String = "default", configuration: Configuration = Configuration()) {
        let directory = Self.defaultDirectory(namespace: namespace)
        let path = directory.standardizedFileURL.path
        try? CacheFolder.claim(path, adoptingExisting: true)
        self.init(claimed: directory, path: path, configuration: configuration)
    }

    /// A cache over a folder already checked by ``CacheFolder/claim(_:adoptingExisting:)``.
    private init(claimed directory: URL, path: String, configuration: Configuration) {
        self.directory = directory
        self.configuration = configuration
        self.path = path
        recentNames = RecentEntryNames(folder: path)
        maintenanceQueue.async { [weak self] in self?.performMaintenance() }
    }

    /// The path an entry for `key` is written to.
    public func cachePath(forKey key: String) -> URL {
        directory.appendingPathComponent(recentNames.names(forKey: key).names[0], isDirectory: false)
    }

    /// The bytes stored for `key`, or nil. Looks in the cache's folder (the full name, then the
    /// name without extension), then in each read-only folder. A hit in the cache's own folder
    /// becomes its most recently used entry.
    public func data(forKey key: String) -> Data? {
        let entry = recentNames.names(forKey: key)
        let now = configuration.clock()
        // A read the index cannot remember yet (before the start-up scan) is stamped on the file.
        // Asked only on a hit: a miss takes no lock, so it never waits behind a store's rename.
        let granularity = { self.index.withLock { $0.remembersReads } ? self.configuration.accessStampGranularity : 0 }
        for (name, file) in zip(entry.names, entry.paths) {
            guard let hit = CacheFile.contents(of: file, stampingAccess: (now, granularity)) else { continue }
            index.withLock { $0.record(name, .accessed(size: hit.allocatedSize, date: now)) }
            return hit.data
        }
        for folder in configuration.additionalReadOnlyPaths {
            for name in entry.names {
                if let hit = CacheFile.contents(of: folder.path + "/" + name, stampingAccess: nil) { return hit.data }
            }
        }
        return nil
    }

    /// Whether `key` has an entry here or in a read-only folder; does not count as a read.
    public func containsData(forKey key: String) -> Bool {
        let folders = [path] + configuration.additionalReadOnlyPaths.map(\.path)
        return folders.contains { folder in
            recentNames.names(forKey: key).names.contains { CacheFile.exists(folder + "/" + $0) }
        }
    }

    /// Stores `data` for `key`, atomically replacing any entry (and its extended data).
    public func store(_ data: Data, forKey key: String) throws(DiskCacheError) {
        let entry = recentNames.names(forKey: key)
        let name = entry.names[0], destination = entry.paths[0]
        let now = configuration.clock()
        let maxSize = configuration.maxSize
        storing.wait()
        defer { storing.signal() }
        let temporary = try CacheFile.writeTemporary(data, in: path, date: now, sync: configuration.syncsWrites)
        let outcome: Result<Bool, DiskCacheError> = index.withLock { index in
            guard rename(temporary.path, destination) == 0 else {
                let failure = DiskCacheError.io(operation: "rename", path: destination, code: errno)
                unlink(temporary.path)
                return .failure(failure)
            }
            // Another process may have written a sidecar the index does not know: always cleared.
            unlink(path + "/" + Self.sidecarName(for: name))
            index.sidecars.remove(name)
            index.record(name, .stored(size: temporary.allocatedSize, date: now))
            guard maxSize > 0, index.entries != nil, index.totalSize > maxSize, !index.isTrimScheduled else {
                return .success(false)
            }
            index.isTrimScheduled = true
            return .success(true)
        }
        if try outcome.get() { scheduleTrim() }
    }

    /// Removes the entry for `key` (under both names) and its extended data.
    public func removeData(forKey key: String) {
        index.withLock { index in
            for name in recentNames.names(forKey: key).names {
                unlink(path + "/" + name)
                unlink(path + "/" + Self.sidecarName(for: name))
                index.sidecars.remove(name)
                index.record(name, .removed)
            }
        }
    }

    /// Removes every entry of the cache's folder and their extended data. Files the cache could
    /// not have written, temporary files of writes under way and read-only folders are left alone.
    public func removeAll() {
        index.withLock { index in
            for name in CacheFile.names(in: path) where Self.isCacheFileName(name) && !CacheFile.isTemporary(name) {
                unlink(path + "/" + name)
            }
            index.removeAll()
        }
    }

    /// The number of entries in the cache's folder (not counting temporary or sidecar files, nor
    /// files the cache could not have written).
    public var count: Int {
        withLoadedIndex { $0.entries?.count ?? 0 }
    }

    /// The entries' lengths in bytes, summed (SDWebImage's `totalSize`): what the cache holds,
    /// read from each entry file. ``totalAllocatedSize`` is what it occupies on disk.
    public var totalSize: Int {
        let names = withLoadedIndex { $0.entries.map { Array($0.keys) } ?? [] }
        let folder = OpenCacheFolder(path)
        return names.reduce(0) { $0 + (folder.status($1)?.byteSize ?? 0) }
    }

    /// The space the entries occupy on disk: the sum of their allocated blocks, kept up to date
    /// as entries come and go, without reading the folder. What ``Configuration/maxSize`` bounds
    /// and trimming measures, as SDWebImage trims.
    public var totalAllocatedSize: Int {
        withLoadedIndex { $0.totalSize }
    }

    /// `body` applied to the index, after scanning the folder if it was never scanned.
    private func withLoadedIndex<T: Sendable>(_ body: (DiskCacheIndex) -> T) -> T {
        if index.withLock({ $0.entries == nil }) { scan(deletingExpired: false) }
        return index.withLock { body($0) }
    }
}
