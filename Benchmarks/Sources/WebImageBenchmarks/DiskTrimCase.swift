#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImage

/// `cache.disk.trim`: a disk cache trims a folder of 100,000 tiny files to half its size limit,
/// against `ref.cache.disk.trim`, the same job done plainly (SDWebImage's way): list the
/// folder, `lstat` every file, sort by access date, `unlink` the oldest until the total is at
/// the target. Each run starts from a freshly filled folder, made before the clock starts.
enum DiskTrimCase {
    /// Files in the folder; a trim deletes half of them.
    static let fileCount = 100_000
    /// Bytes per file.
    static let fileSize = 100

    /// `DiskCache.removeExpired()` (a scan of the folder, then the trim) with the size limit at
    /// half the folder's total.
    static var trim: BenchmarkCase {
        BenchmarkCase(name: "cache.disk.trim", prepareOperation: {
            let folder = try TrimFolder()
            var cache: DiskCache?
            return TimedOperation(
                setUp: {
                    cache = nil
                    try folder.empty()
                    try folder.placeStartUpMarker()
                    // A limit the full folder exceeds; a trim goes down to it (trimRatio 1).
                    let configuration = DiskCache.Configuration(
                        maxAge: -1, maxSize: folder.target, trimRatio: 1, autoTrimInterval: 0)
                    let fresh = try DiskCache(directory: folder.url, configuration: configuration)
                    try folder.waitForStartUpPass()
                    try folder.fill()
                    cache = fresh
                },
                run: {
                    guard let cache else { throw TrimFolder.Failure("no cache was set up") }
                    cache.removeExpired()
                    guard cache.totalSize <= folder.target, cache.count == fileCount / 2 else {
                        throw TrimFolder.Failure("trimmed to \(cache.count) entries, \(cache.totalSize) bytes")
                    }
                },
                tearDown: folder.remove)
        })
    }

    /// The plain trim, to the same target.
    static var reference: BenchmarkCase {
        BenchmarkCase(name: "ref.cache.disk.trim", prepareOperation: {
            let folder = try TrimFolder()
            return TimedOperation(
                setUp: {
                    try folder.empty()
                    try folder.fill()
                },
                run: {
                    let path = folder.url.path
                    var files: [(name: String, accessDate: Double, size: Int)] = []
                    for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                        var info = stat()
                        guard lstat(path + "/" + name, &info) == 0 else { continue }
                        files.append((name, Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9, Int(info.st_blocks) * 512))
                    }
                    files.sort { ($0.accessDate, $0.name) < ($1.accessDate, $1.name) }
                    var total = files.reduce(0) { $0 + $1.size }
                    for file in files where total > folder.target {
                        unlink(path + "/" + file.name)
                        total -= file.size
                    }
                    guard total <= folder.target else { throw TrimFolder.Failure("trimmed to \(total) bytes") }
                },
                tearDown: folder.remove)
        })
    }
}
