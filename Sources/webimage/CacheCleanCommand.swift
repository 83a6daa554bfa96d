import ArgumentParser
import Foundation
import WebImage

/// `webimage cache clean`: deletes the expired entries of the disk cache.
struct CacheCleanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Delete the entries not used for a week (the disk cache's default maxAge) and list them.",
        discussion: """
            An entry's age counts from its last store or read, as the cache's own expiry does. A \
            webimage serve --cache-dir folder is cleaned as its two caches, sources/ and results/.
            Example:
              webimage cache clean --cache-dir /tmp/thumbs
              removed 5d41402abc4b2a76b9719d911017c592.jpg (1.7 MiB)
              removed 1 expired entry, 1.7 MiB (1806336 bytes); 11 entries, 12.0 MiB (12582912 bytes) remain in /tmp/thumbs
            """)

    @OptionGroup var options: CacheFolderOptions

    func run() async throws {
        try await CommandFailure.reporting {
            for folder in options.cacheFolders {
                let before = CacheFolderListing.entries(in: folder)
                let cache = try options.openCache(folder, configuration: DiskCache.Configuration(autoTrimInterval: 0), writing: true)
                cache.removeExpired()
                let after = CacheFolderListing.entries(in: folder)
                let removed = before.filter { after[$0.key] == nil }.sorted { $0.key < $1.key }
                for (name, size) in removed {
                    print("removed \(name) (\(ByteCount.human(size)))")
                }
                let freed = removed.reduce(0) { $0 + $1.value }
                print("removed \(CacheCommand.entries(removed.count, "expired")), \(ByteCount.describe(freed));",
                      "\(CacheCommand.entries(cache.count)), \(ByteCount.describe(cache.totalAllocatedSize)) remain in \(folder.path)")
            }
        }
    }
}
