import Foundation

/// The peak resident memory of this process, in MiB: `VmHWM` of `/proc/self/status`.
///
/// Not `getrusage`'s `ru_maxrss`: Linux carries that over an `exec`, so a case started by a
/// large parent (compare.py once it has held photos) would report the parent's peak.
enum PeakMemory {
    /// No `VmHWM` line could be read.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "no VmHWM in /proc/self/status" }
    }

    static func mebibytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { throw Unreadable() }
        return kibibytes / 1024
    }
}
