#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The POSIX file operations behind ``DiskCache``: whole-file reads that stamp the access
/// time, temporary-file writes for atomic replacement, and `stat` facts.
enum CacheFile {
    /// What the cache needs to know of one file.
    struct Status {
        /// Bytes allocated on disk (`st_blocks × 512`), what SDWebImage's trimming counts.
        var allocatedSize: Int
        /// The file's length in bytes (`st_size`), what SDWebImage's `totalSize` sums.
        var byteSize: Int
        var accessDate: Date
        var modificationDate: Date

        /// The status `stat` gave, or nil when it is not a regular file's.
        init?(_ info: stat) {
            guard CacheFile.isRegular(info) else { return nil }
            allocatedSize = CacheFile.allocatedSize(info)
            byteSize = Int(info.st_size)
            accessDate = Date(info.st_atim)
            modificationDate = Date(info.st_mtim)
        }
    }

    /// The whole content of the regular file at `path`, or nil when it cannot be read.
    /// When `stamp` is given, its date becomes the file's access time if the time on disk is
    /// older by more than its granularity (the modification time is written back unchanged), so
    /// LRU order does not depend on how the file system is mounted, and a file read again and
    /// again is not rewritten on every read. The granularity is asked only of a file that was
    /// opened, so a miss costs its caller nothing but the `open`.
    static func contents(of path: String, stampingAccess stamp: (date: Date, granularity: () -> TimeInterval)?)
        -> (data: Data, allocatedSize: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, isRegular(info) else { return nil }
        // Read into memory that is not zeroed first: the read fills it, and zeroing a large
        // entry cost as much as a tenth of a hit.
        let size = Int(info.st_size)
        guard let buffer = malloc(max(size, 1)) else { return nil }
        var filled = 0
        while filled < size {
            let got = read(fd, buffer + filled, size - filled)
            if got < 0 && errno == EINTR { continue }
            if got < 0 {
                free(buffer)
                return nil
            }
            if got == 0 { break }
            filled += got
        }
        let data = Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
        if let stamp, stamp.date.timeIntervalSince(Date(info.st_atim)) > stamp.granularity() {
            var times = [timespec(stamp.date), info.st_mtim]
            _ = futimens(fd, &times)
        }
        return (data, allocatedSize(info))
    }

    /// Writes `data` to a new hidden temporary file in `directory` whose access and
    /// modification times are `date`; returns its path and allocated size. The caller renames
    /// it into place, so no reader ever sees a partial file.
    static func writeTemporary(_ data: Data, in directory: String, date: Date, sync: Bool) throws(DiskCacheError) -> (path: String, allocatedSize: Int) {
        let path = directory + "/" + temporaryName()
        var fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT {
            CacheFolder.create(directory)
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw .io(operation: "open", path: path, code: errno) }
        do throws(DiskCacheError) {
            defer { close(fd) }
            try writeAll(data, to: fd, path: path)
            if sync && fsync(fd) != 0 { throw .io(operation: "fsync", path: path, code: errno) }
            var times = [timespec(date), timespec(date)]
            _ = futimens(fd, &times)
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .io(operation: "fstat", path: path, code: errno) }
            return (path, allocatedSize(info))
        } catch {
            unlink(path)
            throw error
        }
    }

    /// The status of the regular file at `path` (symbolic links are not followed), or nil.
    static func status(_ path: String) -> Status? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Status(info)
    }

    /// Whether a regular file exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && isRegular(info)
    }

    /// The names in `directory`, or none when it cannot be listed.
    static func names(in directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// Whether `name` is a temporary file of ours (`.<pid>-<random hex>.tmp`).
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return false }
        let parts = name.dropFirst().dropLast(temporarySuffix.count).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isASCIIDigit)
            && (1...32).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && $0.isHexDigit }
    }

    /// Whether the temporary file `name` in `directory` was left behind: its writer process is
    /// gone, or it is older than an hour. A live writer's file (ours or another process's) is kept.
    static func isAbandonedTemporary(_ name: String, in directory: String, now: Date) -> Bool {
        guard let status = status(directory + "/" + name) else { return false }
        if now.timeIntervalSince(status.modificationDate) > 3600 { return true }
        let pidText = name.dropFirst().prefix { $0 != "-" }
        guard let pid = pid_t(pidText) else { return true }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    private static let temporarySuffix = ".tmp"

    /// A name no key produces (cache names start with a hex digit) and no other writer picks.
    private static func temporaryName() -> String {
        let random = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        return ".\(getpid())-\(random)\(temporarySuffix)"
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(DiskCacheError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let wrote = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { return wrote < 0 ? errno : ENOSPC }
                offset += wrote
            }
            return nil
        }
        if let failure { throw .io(operation: "write", path: path, code: failure) }
    }

    fileprivate static func isRegular(_ info: stat) -> Bool {
        info.st_mode & S_IFMT == S_IFREG
    }

    fileprivate static func allocatedSize(_ info: stat) -> Int {
        Int(info.st_blocks) * 512
    }
}

private extension Character {
    /// Whether the character is one of `0`–`9`.
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

private extension timespec {
    /// The time `date` as seconds and nanoseconds since 1970.
    init(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        self.init(tv_sec: Int(whole), tv_nsec: min(999_999_999, Int(((seconds - whole) * 1e9).rounded())))
    }
}

private extension Date {
    /// The date a `timespec` from `stat` names.
    init(_ time: timespec) {
        self.init(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }
}
