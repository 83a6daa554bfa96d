#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The folder of ``DiskTrimCase``: filled with ``DiskTrimCase/fileCount`` files of
/// ``DiskTrimCase/fileSize`` bytes whose access dates are a millisecond apart, oldest first.
final class TrimFolder {
    /// Preparing or trimming the folder went wrong: what and where.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A new folder in `/dev/shm` (tmpfs) where there is one, else in the temporary directory.
    /// Filling and emptying 100,000 files on a shared disk takes many seconds per run and
    /// swings with the other processes' I/O; the timed trim itself costs about the same on both.
    let url: URL = {
        var isDirectory: ObjCBool = false
        let shm = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory)
            && isDirectory.boolValue && FileManager.default.isWritableFile(atPath: "/dev/shm")
        let base = shm ? URL(fileURLWithPath: "/dev/shm", isDirectory: true) : FileManager.default.temporaryDirectory
        return base.appendingPathComponent("webimage-bench-trim-\(UUID().uuidString)", isDirectory: true)
    }()
    /// Half the allocated size of the full folder: what a trim must reach.
    let target: Int

    /// Measures how much one file occupies on this file system.
    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let probe = url.appendingPathComponent("probe").path
        try Self.createFile(probe, date: Date())
        var info = stat()
        guard stat(probe, &info) == 0 else { throw Failure("cannot stat \(probe)") }
        unlink(probe)
        target = Int(info.st_blocks) * 512 * DiskTrimCase.fileCount / 2
    }

    /// Deletes the folder and everything in it, then creates it again, empty.
    func empty() throws {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the folder.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Puts in the empty folder a temporary file of a dead writer (a pid no process has):
    /// the start-up pass of a disk cache opened next deletes it, which marks the moment that
    /// pass has listed the folder (see ``waitForStartUpPass()``).
    func placeStartUpMarker() throws {
        try Self.createFile(marker, date: Date())
    }

    /// Waits until the disk cache opened after ``placeStartUpMarker()`` has listed the folder,
    /// so that its start-up pass can neither see nor trim the files written next.
    func waitForStartUpPass() throws {
        let deadline = Date() + 30
        while access(marker, F_OK) == 0 {
            guard Date() < deadline else { throw Failure("the disk cache never listed \(url.path)") }
            usleep(500)
        }
    }

    /// Named as a cache's temporary file (`.<pid>-<hex>.tmp`, which the cache accepts in its
    /// folder) of a pid no process has, so that the cache's start-up pass deletes it.
    private var marker: String { url.path + "/.\(Int32.max)-be9c4.tmp" }

    /// Writes the files, named like cache entries.
    func fill() throws {
        let start = Date() - 86_400
        for i in 0..<DiskTrimCase.fileCount {
            let hex = String(i, radix: 16)
            let name = String(repeating: "0", count: 32 - hex.count) + hex
            try Self.createFile(url.path + "/" + name, date: start + Double(i) / 1000)
        }
    }

    /// Writes `DiskTrimCase.fileSize` bytes to a new file at `path` with access and
    /// modification dates `date`.
    private static func createFile(_ path: String, date: Date) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure("cannot create \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = [UInt8](repeating: 0x5A, count: DiskTrimCase.fileSize)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw Failure("cannot write \(path)") }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        var times = [time, time]
        guard futimens(fd, &times) == 0 else { throw Failure("cannot set the dates of \(path)") }
    }
}
