#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The entries of a cache folder as the file system shows them, independently of the cache.
enum CacheFolderListing {
    /// Each entry's file name and allocated size: the regular files whose names do not start
    /// with a dot (those are the cache's temporary and sidecar files).
    static func entries(in folder: URL) -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var entries: [String: Int] = [:]
        for name in names where !name.hasPrefix(".") {
            var info = stat()
            guard lstat(folder.path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            entries[name] = Int(info.st_blocks) * 512
        }
        return entries
    }
}
