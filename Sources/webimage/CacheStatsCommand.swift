import ArgumentParser
import WebImage

/// `webimage cache stats`: how many entries the disk cache holds and what they occupy.
struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print the number of entries, their size on disk and the cache folder.",
        discussion: """
            Sizes are allocated sizes, what the cache's size limit counts. Nothing is deleted. A \
            webimage serve --cache-dir folder is described as its two caches, sources/ and results/.
            Example:
              webimage cache stats --cache-dir /tmp/thumbs
              folder: /tmp/thumbs
              entries: 12
              size: 1.4 MiB (1474560 bytes)
            """)

    @OptionGroup var options: CacheFolderOptions

    func run() async throws {
        try await CommandFailure.reporting {
            for folder in options.cacheFolders {
                let cache = try options.openCache(folder, configuration: .keepingEverything, writing: false)
                print("folder: \(cache.directory.path)")
                print("entries: \(cache.count)")
                print("size: \(ByteCount.describe(cache.totalAllocatedSize))")
            }
        }
    }
}
