import Foundation
import Locking

/// The URLs that failed for good (SDWebImage's `failedURLs`), bounded: the least recently
/// failed are forgotten first.
final class FailedURLList: Sendable {
    private let urls: MemoryCache<URL, Bool>
    /// False until a URL is first added (and again after ``removeAll()``), so that the common
    /// case, a list that never held anything, answers without hashing a URL.
    private let mayHoldURLs = Atomic<Bool>(false)

    init(limit: Int) {
        urls = MemoryCache(costLimit: 0, countLimit: limit)
    }

    func contains(_ url: URL) -> Bool { mayHoldURLs.load(ordering: .acquiring) && urls.contains(url) }

    func insert(_ url: URL) {
        urls.setValue(true, forKey: url)
        mayHoldURLs.store(true, ordering: .releasing)
    }

    func remove(_ url: URL) { _ = urls.removeValue(forKey: url) }

    func removeAll() {
        mayHoldURLs.store(false, ordering: .releasing)
        urls.removeAll()
    }
}
