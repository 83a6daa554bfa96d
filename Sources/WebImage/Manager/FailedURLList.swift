import Foundation

/// The URLs that failed for good (SDWebImage's `failedURLs`), bounded: the least recently
/// failed are forgotten first.
struct FailedURLList: Sendable {
    private let urls: MemoryCache<URL, Bool>

    init(limit: Int) {
        urls = MemoryCache(costLimit: 0, countLimit: limit)
    }

    func contains(_ url: URL) -> Bool { urls.contains(url) }
    func insert(_ url: URL) { urls.setValue(true, forKey: url) }
    func remove(_ url: URL) { _ = urls.removeValue(forKey: url) }
    func removeAll() { urls.removeAll() }
    var count: Int { urls.count }
}
