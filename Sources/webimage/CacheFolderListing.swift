#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImage

/// The entries of a cache folder as the file system shows them, independently of the cache.
enum CacheFolderListing {
    /// Each entry's file name and allocated size: the regular files named as a cache names its
    /// entries (not its hidden temporary and sidecar files, nor anybody else's files).
    static func entries(in folder: URL) -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var entries: [String: Int] = [:]
        for name in names where DiskCache.isEntryFileName(name) {
            var info = stat()
            guard lstat(folder.path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            entries[name] = Int(info.st_blocks) * 512
        }
        return entries
    }
}
