import Foundation

/// The in-memory picture of a ``DiskCache`` folder: each entry's allocated size and access
/// date, and their running total, so writes and trims never list the folder.
///
/// It is built by a scan of the folder and then kept current by every store, read and
/// removal. Changes made while a scan is running are also journalled and replayed on top of
/// the scan's result, so a scan never undoes them. Not thread-safe: ``DiskCache`` guards it.
struct DiskCacheIndex {
    /// One file of the folder.
    struct Entry {
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
    private(set) var entries: [String: Entry]?
    /// The sum of the entries' sizes.
    private(set) var totalSize = 0
    /// Whether a background trim is queued or running.
    var isTrimScheduled = false

    private var runningScans = 0
    private var journal: [String: Change] = [:]
    /// Whether the folder was emptied while a scan ran, so its result is void.
    private var journalStartsEmpty = false
    private var nextStamp: UInt64 = 0

    /// Applies `change` to the entry `name` (and to the journal while a scan runs).
    mutating func record(_ name: String, _ change: Change) {
        if entries != nil { apply(change, to: name) }
        guard runningScans > 0 else { return }
        switch (journal[name], change) {
        case (.stored(let size, _), .accessed(_, let date)): journal[name] = .stored(size: size, date: date)
        case (.removed, .accessed): break
        default: journal[name] = change
        }
    }

    /// Forgets every entry: the folder has just been emptied.
    mutating func removeAll() {
        entries = [:]
        totalSize = 0
        if runningScans > 0 {
            journal = [:]
            journalStartsEmpty = true
        }
    }

    /// Notes that a scan of the folder starts now.
    mutating func beginScan() {
        runningScans += 1
    }

    /// Whether `name` was stored, read or removed since the running scans began.
    func changedDuringScan(_ name: String) -> Bool {
        journalStartsEmpty || journal[name] != nil
    }

    /// Replaces the entries with a scan's findings plus the changes made while it ran.
    mutating func finishScan(found: [String: (size: Int, accessDate: Date)]) {
        let scanned = journalStartsEmpty ? [:] : found
        entries = [:]
        totalSize = 0
        for (name, file) in scanned { apply(.stored(size: file.size, date: file.accessDate), to: name) }
        for (name, change) in journal { apply(change, to: name) }
        runningScans -= 1
        if runningScans == 0 {
            journal = [:]
            journalStartsEmpty = false
        }
    }

    /// The least recently accessed entries whose removal brings the total to `target` or
    /// below, oldest first, each with the stamp it has now.
    func victims(toReach target: Int) -> [(name: String, stamp: UInt64)] {
        guard let entries, totalSize > target else { return [] }
        let oldestFirst = entries.sorted {
            ($0.value.accessDate, $0.key) < ($1.value.accessDate, $1.key)
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
            entries?[name] = Entry(size: size, accessDate: date, stamp: nextStamp)
            totalSize += size - (old?.size ?? 0)
        case .accessed(let size, let date):
            entries?[name] = Entry(size: old?.size ?? size, accessDate: date, stamp: nextStamp)
            totalSize += old == nil ? size : 0
        case .removed:
            entries?[name] = nil
            totalSize -= old?.size ?? 0
        }
    }
}
