import Foundation

/// The in-memory picture of a ``DiskCache`` folder: each entry's allocated size and access
/// date, and their running total, so writes and trims never list the folder.
///
/// It is built by a scan of the folder and then kept current by every store, read and
/// removal. Changes made while a scan is running are also journalled, each at its position,
/// and replayed on top of the scan's result, so a scan never undoes them. Scans may overlap
/// (an explicit ``DiskCache/removeExpired()`` during the background one): each scan knows
/// where it began, so it spares only the entries changed since then and sees every other.
/// Not thread-safe: ``DiskCache`` guards it.
struct DiskCacheIndex {
    /// One file of the folder.
    struct IndexEntry {
        var size: Int
        var accessDate: Date
        /// Changes on every update, so a trim can tell the entry it chose from a newer one.
        var stamp: UInt64
    }

    /// What happened to a file.
    enum Change {
        /// The file was written with this size and date.
        case stored(size: Int, date: Date)
        /// The file was read at `date`; `size` is used only if the index did not know it.
        case accessed(size: Int, date: Date)
        /// The file was deleted.
        case removed
    }

    /// The entries by file name; nil until the first scan finishes.
    private(set) var entries: [String: IndexEntry]?
    /// The sum of the entries' sizes.
    private(set) var totalSize = 0
    /// Whether a background trim is queued or running.
    var isTrimScheduled = false
    /// The entries known to have a sidecar file (extended data where extended attributes are
    /// refused): found by scans, added by this process's writes. Trims and expiry delete only
    /// these sidecars with their entries; one another process wrote since the last scan is left
    /// behind as an orphan, which the next scan deletes, and which a later store of its key
    /// replaces (a store always clears the key's sidecar).
    var sidecars: Set<String> = []

    private var runningScans = 0
    /// The last change to each file since the oldest running scan began, with its position.
    private var journal: [String: (change: Change, position: UInt64)] = [:]
    /// The position of the latest change; positions only grow.
    private var position: UInt64 = 0
    /// The position at which the folder was emptied while scans ran: the listings of scans
    /// that began before it are void.
    private var emptiedAt: UInt64?
    private var nextStamp: UInt64 = 0

    /// Applies `change` to the entry `name` (and to the journal while a scan runs).
    mutating func record(_ name: String, _ change: Change) {
        if entries != nil { apply(change, to: name) }
        guard runningScans > 0 else { return }
        position += 1
        switch (journal[name]?.change, change) {
        case (.stored(let size, _), .accessed(_, let date)): journal[name] = (.stored(size: size, date: date), position)
        case (.removed, .accessed): break
        default: journal[name] = (change, position)
        }
    }

    /// Whether a read recorded now is remembered: by the entries, or by the journal of a scan
    /// under way. Before the first scan begins, nothing is.
    var remembersReads: Bool { entries != nil || runningScans > 0 }

    /// The latest date of a store or read the index knows for each file: its entries' and, while
    /// scans run, the journal's (before the first scan finishes, its only record of them).
    func knownAccessDates() -> [String: Date] {
        var dates = entries?.mapValues(\.accessDate) ?? [:]
        for (name, entry) in journal {
            switch entry.change {
            case .stored(_, let date), .accessed(_, let date): dates[name] = max(dates[name] ?? .distantPast, date)
            case .removed: break
            }
        }
        return dates
    }

    /// Forgets every entry: the folder has just been emptied.
    mutating func removeAll() {
        entries = [:]
        totalSize = 0
        sidecars = []
        if runningScans > 0 {
            position += 1
            journal = [:]
            emptiedAt = position
        }
    }

    /// Notes that a scan of the folder starts now; returns where it starts, for
    /// ``changed(_:since:)`` and ``finishScan(found:startedAt:)``.
    mutating func beginScan() -> UInt64 {
        runningScans += 1
        return position
    }

    /// Whether `name` was stored, read or removed since the scan that began at `start`.
    func changed(_ name: String, since start: UInt64) -> Bool {
        (emptiedAt ?? 0) > start || (journal[name]?.position ?? 0) > start
    }

    /// Replaces the entries with the findings of the scan that began at `start`, plus the
    /// changes made since it began.
    mutating func finishScan(found: [String: (size: Int, accessDate: Date)], startedAt start: UInt64) {
        let scanned = (emptiedAt ?? 0) > start ? [:] : found
        let previous = entries ?? [:]
        var total = 0
        // mapValues keeps the scan's hash table as it is: no entry is hashed again.
        entries = scanned.mapValues { file in
            total += file.size
            nextStamp &+= 1
            return IndexEntry(size: file.size, accessDate: file.accessDate, stamp: nextStamp)
        }
        totalSize = total
        // A file found as the index knew it is no update: it keeps its stamp, so a trim that
        // chose it meanwhile still deletes it.
        if !previous.isEmpty {
            for (name, known) in previous {
                guard let file = scanned[name], known.size == file.size, known.accessDate == file.accessDate else { continue }
                entries?[name]?.stamp = known.stamp
            }
        }
        for (name, entry) in journal where entry.position > start { apply(entry.change, to: name) }
        runningScans -= 1
        if runningScans == 0 {
            journal = [:]
            emptiedAt = nil
        }
    }

    /// The least recently accessed entries whose removal brings the total to `target` or
    /// below, oldest first, each with the stamp it has now.
    func victims(toReach target: Int) -> [(name: String, stamp: UInt64)] {
        guard let entries, totalSize > target else { return [] }
        // Names are compared only between equal dates (building tuples of both would retain
        // and release the names on every comparison).
        let oldestFirst = entries.sorted { a, b in
            a.value.accessDate == b.value.accessDate ? a.key < b.key : a.value.accessDate < b.value.accessDate
        }
        var remaining = totalSize
        var chosen: [(name: String, stamp: UInt64)] = []
        for (name, entry) in oldestFirst where remaining > target {
            chosen.append((name, entry.stamp))
            remaining -= entry.size
        }
        return chosen
    }

    private mutating func apply(_ change: Change, to name: String) {
        nextStamp &+= 1
        let old = entries?[name]
        switch change {
        case .stored(let size, let date):
            entries?[name] = IndexEntry(size: size, accessDate: date, stamp: nextStamp)
            totalSize += size - (old?.size ?? 0)
        case .accessed(let size, let date):
            entries?[name] = IndexEntry(size: old?.size ?? size, accessDate: date, stamp: nextStamp)
            totalSize += old == nil ? size : 0
        case .removed:
            entries?[name] = nil
            totalSize -= old?.size ?? 0
        }
    }
}
