#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import WebImage
import WebImageServer

/// The `--cache-dir` options of `webimage get` and the `webimage cache` commands, and the
/// checks on the folder before a cache is opened over it.
struct CacheFolderOptions: ParsableArguments {
    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The cache folder (default: $XDG_CACHE_HOME/webimage/default or ~/.cache/webimage/default).",
            valueName: "DIR"))
    var cacheDirectory: String?

    @Flag(
        name: .customLong("adopt-cache-dir"),
        help: """
            Use --cache-dir even though it holds files the cache did not write and no CACHEDIR.TAG \
            (those files are never touched).
            """)
    var adoptsCacheDirectory = false

    /// The folder named by `--cache-dir`, or the default cache's.
    var folder: URL {
        cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? DiskCache.defaultDirectory(namespace: "default")
    }

    /// The cache folders the command acts on: ``folder``, or, when it is a `webimage serve
    /// --cache-dir` folder (no `CACHEDIR.TAG` of its own, cache folders as its `sources/` and
    /// `results/`), those two.
    var cacheFolders: [URL] {
        let tag = "CACHEDIR.TAG"
        guard !FileManager.default.fileExists(atPath: folder.appendingPathComponent(tag).path) else { return [folder] }
        let layout = ImageServer.Configuration.cacheSubfolders
        let served = [layout.sources, layout.results].map { folder.appendingPathComponent($0, isDirectory: true) }
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent(tag).path) }
        return served.isEmpty ? [folder] : served
    }

    /// A disk cache over `folder`, once it is known to be one the command can read (and write,
    /// when `writing`) and that the cache may own; otherwise a ``CommandFailure`` that says what
    /// is wrong. A folder that does not exist yet is an empty cache.
    func openCache(_ folder: URL, configuration: DiskCache.Configuration, writing: Bool) throws(CommandFailure) -> DiskCache {
        let path = folder.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure("\(path) is not a folder") }
            guard access(path, R_OK | X_OK) == 0 else {
                throw CommandFailure("cannot read the cache folder \(path): permission denied")
            }
            if writing && access(path, W_OK) != 0 {
                throw CommandFailure("cannot change the cache folder \(path): permission denied")
            }
        }
        var configuration = configuration
        configuration.adoptsExistingFolder = adoptsCacheDirectory
        do {
            return try DiskCache(directory: folder, configuration: configuration)
        } catch .unownedFolder(_, let foreignFile) {
            throw CommandFailure("""
                \(path) is not a cache folder: it holds files WebImage did not write (such as \
                \(foreignFile.debugDescription)) and no CACHEDIR.TAG. Choose a new or empty folder, or pass \
                --adopt-cache-dir to use it anyway (its other files are never touched).
                """)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Whether the process can store into the folder: it is writable, or the nearest folder
    /// above it that exists is, so the first store can create it.
    var isWritable: Bool {
        var candidate = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: candidate.path) && candidate.path != "/" {
            candidate.deleteLastPathComponent()
        }
        return access(candidate.path, W_OK) == 0
    }
}

extension DiskCache.Configuration {
    /// For commands that must not delete entries: nothing expires, nothing is trimmed, and the
    /// cache's background pass only removes temporary files abandoned by dead writers.
    static let keepingEverything = DiskCache.Configuration(maxAge: -1, autoTrimInterval: 0)
}
