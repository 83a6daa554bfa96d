import ArgumentParser
import Foundation
import WebImage

/// The `--cache-dir` option of the `webimage cache` commands, and the checks on the folder.
struct CacheFolderOptions: ParsableArguments {
    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The cache folder (default: $XDG_CACHE_HOME/webimage/default or ~/.cache/webimage/default).",
            valueName: "DIR"))
    var cacheDirectory: String?

    /// The folder named by `--cache-dir`, or the default cache's.
    var folder: URL {
        cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? DiskCache.defaultDirectory(namespace: "default")
    }

    /// A disk cache over the folder, once it is known to be a folder the command can read
    /// (and write, when `writing`); otherwise a ``CommandFailure`` that says what is wrong.
    func openCache(configuration: DiskCache.Configuration, writing: Bool) throws(CommandFailure) -> DiskCache {
        let path = folder.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("no cache folder at \(path)")
        }
        guard isDirectory.boolValue else { throw CommandFailure("\(path) is not a folder") }
        guard FileManager.default.isReadableFile(atPath: path), FileManager.default.isExecutableFile(atPath: path) else {
            throw CommandFailure("cannot read the cache folder \(path): permission denied")
        }
        if writing && !FileManager.default.isWritableFile(atPath: path) {
            throw CommandFailure("cannot change the cache folder \(path): permission denied")
        }
        return DiskCache(directory: folder, configuration: configuration)
    }
}

extension DiskCache.Configuration {
    /// For commands that must not delete entries: nothing expires, nothing is trimmed, and the
    /// cache's background pass only removes temporary files abandoned by dead writers.
    static let keepingEverything = DiskCache.Configuration(maxAge: -1, autoTrimInterval: 0)
}
