#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What `stat` says of a file, read independently of the cache under test.
struct FileStat {
    let accessDate: Date
    let allocatedSize: Int

    /// The status of the file at `url`, or nil when there is none.
    init?(_ url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        accessDate = Date(timeIntervalSince1970: Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9)
        allocatedSize = Int(info.st_blocks) * 512
    }
}
