#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

extension DiskCache {
    /// Deletes the entries older than ``Configuration/maxAge`` (by ``Configuration/expireType``),
    /// then trims to ``Configuration/maxSize`` if the folder is over it (SDWebImage's
    /// `removeExpiredData`). Lists the whole folder, so it also picks up other processes'
    /// writes, and judges every entry there, even while a background pass is running: only an
    /// entry stored or read after this call began is spared. Synchronous: it runs on the
    /// caller's thread; the cache itself runs it in the background at start-up and every
    /// ``Configuration/autoTrimInterval``.
    public func removeExpired() {
        scan(deletingExpired: true)
        trimToSizeLimit()
    }

    /// The start-up and timed pass: expiry and size, then the next pass is scheduled.
    func performMaintenance() {
        removeExpired()
        let interval = configuration.autoTrimInterval
        guard interval > 0 else { return }
        maintenanceQueue.asyncAfter(deadline: .now() + interval) { [weak self] in self?.performMaintenance() }
    }

    /// Queues a size trim on the maintenance queue.
    func scheduleTrim() {
        maintenanceQueue.async { [weak self] in
            guard let self else { return }
            index.withLock { $0.isTrimScheduled = false }
            trimToSizeLimit()
        }
    }

    /// Lists the folder and rebuilds the index from it; deletes abandoned temporary files,
    /// orphaned sidecars and, when `deletingExpired`, expired entries. Names the cache could not
    /// have written are skipped. Stores, reads and removals made after the scan began win over
    /// what the listing saw; those made before it are in the listing.
    func scan(deletingExpired: Bool) {
        // Reads stamp the files only every `accessStampGranularity`; the index knows each one.
        let (start, readDates) = index.withLock { index in (index.beginScan(), index.knownAccessDates()) }
        let now = configuration.clock()
        let maxAge = configuration.maxAge
        // maxAge 0 expires everything, even a file stamped this very instant.
        let expiry: Date? = !deletingExpired || maxAge < 0 ? nil : maxAge == 0 ? .distantFuture : now - maxAge
        let folder = OpenCacheFolder(path)
        let names = CacheFile.names(in: path)
        var found = [String: (size: Int, accessDate: Date)](minimumCapacity: names.count)
        var sidecars: [(sidecar: String, entry: String)] = []
        for name in names {
            if CacheFile.isTemporary(name) {
                if CacheFile.isAbandonedTemporary(name, in: path, now: now) { folder.remove(name) }
                continue
            }
            if let entry = Self.entryName(ofSidecar: name) {
                sidecars.append((name, entry))
                continue
            }
            guard Self.isEntryFileName(name), var status = folder.status(name) else { continue }
            if !readDates.isEmpty { status.accessDate = max(status.accessDate, readDates[name] ?? .distantPast) }
            if let expiry, expiryDate(of: name, status) <= expiry, deleteIfUnchanged(name, since: start, in: folder) { continue }
            found[name] = (status.allocatedSize, status.accessDate)
        }
        index.withLock { index in
            index.finishScan(found: found, startedAt: start)
            for (sidecar, entry) in sidecars {
                if folder.status(entry) == nil {
                    folder.remove(sidecar)
                } else {
                    index.sidecars.insert(entry)
                }
            }
        }
    }

    /// When over ``Configuration/maxSize``, deletes the least recently accessed entries until
    /// the total is at most `maxSize × trimRatio`. Victims are deleted a batch at a time under
    /// the lock, and one read or stored again since it was chosen is spared.
    func trimToSizeLimit() {
        let maxSize = configuration.maxSize
        guard maxSize > 0 else { return }
        if index.withLock({ $0.entries == nil }) { scan(deletingExpired: false) }
        let target = Int(Double(maxSize) * min(max(configuration.trimRatio, 0), 1))
        let victims = index.withLock { $0.totalSize > maxSize ? $0.victims(toReach: target) : [] }
        let batchSize = 64
        let folder = OpenCacheFolder(path)
        for start in stride(from: 0, to: victims.count, by: batchSize) {
            index.withLock { index in
                for victim in victims[start..<min(start + batchSize, victims.count)]
                where index.entries?[victim.name]?.stamp == victim.stamp {
                    deleteEntry(victim.name, in: folder, index: &index)
                }
            }
        }
    }

    /// Deletes the file `name`, and its sidecar when the index knows of one, and forgets the
    /// entry. Call with the index locked.
    private func deleteEntry(_ name: String, in folder: OpenCacheFolder, index: inout DiskCacheIndex) {
        folder.remove(name)
        if index.sidecars.remove(name) != nil { folder.remove(Self.sidecarName(for: name)) }
        index.record(name, .removed)
    }

    /// Deletes the expired entry `name` unless it was stored or read since the scan that began
    /// at `start` began.
    private func deleteIfUnchanged(_ name: String, since start: UInt64, in folder: OpenCacheFolder) -> Bool {
        index.withLock { index in
            guard !index.changed(name, since: start) else { return false }
            deleteEntry(name, in: folder, index: &index)
            return true
        }
    }

    /// The date ``Configuration/expireType`` names for the file `name`.
    private func expiryDate(of name: String, _ status: CacheFile.Status) -> Date {
        switch configuration.expireType {
        case .accessDate:
            return status.accessDate
        case .modificationDate:
            return status.modificationDate
        case .creationDate:
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            guard let created = attributes?[.creationDate] as? Date, created.timeIntervalSince1970 > 0 else {
                return status.modificationDate
            }
            return created
        }
    }
}
