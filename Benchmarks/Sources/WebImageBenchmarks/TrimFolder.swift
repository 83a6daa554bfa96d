#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The folder of ``DiskTrimCase``: filled with ``DiskTrimCase/fileCount`` files of
/// ``DiskTrimCase/fileSize`` bytes whose access dates are a millisecond apart, oldest first.
final class TrimFolder {
    /// The trim left the folder in a state it should not be in.
    struct Failure: Error {}

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
        guard stat(probe, &info) == 0 else { throw Failure() }
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

    /// Waits until a disk cache just opened on the empty folder has listed it, so that its
    /// start-up pass can neither see nor trim the files written next. The pass deletes the
    /// temporary files of dead writers, so a fake one (a pid no process has) marks the moment.
    func waitForStartUpPass() throws {
        let marker = url.path + "/.\(Int32.max)-benchmark.tmp"
        try Self.createFile(marker, date: Date())
        let deadline = Date() + 30
        while access(marker, F_OK) == 0 {
            guard Date() < deadline else { throw Failure() }
            usleep(500)
        }
    }

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
        guard fd >= 0 else { throw Failure() }
        defer { close(fd) }
        let bytes = [UInt8](repeating: 0x5A, count: DiskTrimCase.fileSize)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw Failure() }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        var times = [time, time]
        guard futimens(fd, &times) == 0 else { throw Failure() }
    }
}
