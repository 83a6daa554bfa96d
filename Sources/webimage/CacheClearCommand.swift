import ArgumentParser
import WebImage

/// `webimage cache clear`: empties the disk cache.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete every entry of the disk cache.",
        discussion: """
            Files another process is writing at that moment are left to it. A webimage serve \
            --cache-dir folder is cleared as its two caches, sources/ and results/.
            Example:
              webimage cache clear --cache-dir /tmp/thumbs
              removed 12 entries, 13.7 MiB (14389248 bytes) from /tmp/thumbs
            """)

    @OptionGroup var options: CacheFolderOptions

    func run() async throws {
        try await CommandFailure.reporting {
            for folder in options.cacheFolders {
                let cache = try options.openCache(folder, configuration: .keepingEverything, writing: true)
                let count = cache.count, size = cache.totalAllocatedSize
                cache.removeAll()
                print("removed \(CacheCommand.entries(count)), \(ByteCount.describe(size)) from \(cache.directory.path)")
            }
        }
    }
}
