import ArgumentParser

/// `webimage cache`: inspect and empty a disk cache folder.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, clean or clear the disk cache.",
        discussion: """
            The folder is the default disk cache's, $XDG_CACHE_HOME/webimage/default or
            ~/.cache/webimage/default, unless --cache-dir names another.
            Examples:
              webimage cache stats
              webimage cache clean --cache-dir /var/cache/thumbs
              webimage cache clear
            """,
        subcommands: [CacheStatsCommand.self, CacheCleanCommand.self, CacheClearCommand.self])

    /// "1 entry", "2 entries"; with a `kind`, "2 expired entries".
    static func entries(_ count: Int, _ kind: String = "") -> String {
        "\(count) \(kind.isEmpty ? "" : kind + " ")\(count == 1 ? "entry" : "entries")"
    }
}
