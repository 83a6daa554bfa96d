import Locking

/// The entry names (and their paths in the cache's folder) of the keys a ``DiskCache`` used
/// last, so that a hit on a recent key neither hashes it with MD5 nor parses its extension
/// again. Bounded: when full, it forgets everything and starts over, which costs a working set
/// larger than ``capacity`` one recomputation per key per round, never unbounded memory.
final class RecentEntryNames: Sendable {
    /// The names a read tries for a key, best first (see ``DiskCache/candidateNames(forKey:)``),
    /// each with its path in the cache's folder.
    struct Names: Sendable {
        let names: [String]
        let paths: [String]
    }

    /// Keys remembered at most.
    static let capacity = 1_024

    private let folder: String
    private let recent = Mutex<[String: Names]>([:])

    /// Names for a cache whose folder is at `folder`.
    init(folder: String) {
        self.folder = folder
    }

    /// The names of `key`, computed on first use.
    func names(forKey key: String) -> Names {
        if let known = recent.withLock({ $0[key] }) { return known }
        let names = DiskCache.candidateNames(forKey: key)
        let computed = Names(names: names, paths: names.map { folder + "/" + $0 })
        recent.withLock { recent in
            if recent.count >= Self.capacity { recent.removeAll(keepingCapacity: true) }
            recent[key] = computed
        }
        return computed
    }
}
