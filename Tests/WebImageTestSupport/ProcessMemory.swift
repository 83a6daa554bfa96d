import Foundation

/// A process's memory as Linux reports it in `/proc/PID/status`, for tests that bound how
/// much memory a workload keeps: this process's, or a child's.
public enum ProcessMemory {
    /// The resident set size now (`VmRSS`), in bytes; 0 where `/proc` is missing.
    public static var residentBytes: Int { field("VmRSS") }

    /// The largest resident set size the process has had (`VmHWM`), in bytes; 0 where `/proc`
    /// is missing.
    public static var peakResidentBytes: Int { field("VmHWM") }

    /// The resident set size now of the process `pid`, in bytes; 0 where it cannot be read.
    public static func residentBytes(ofProcess pid: Int32) -> Int { field("VmRSS", of: String(pid)) }

    /// The value of a `kB` field of `/proc/PROCESS/status`, in bytes.
    private static func field(_ name: String, of process: String = "self") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
            return (number ?? 0) * 1024
        }
        return 0
    }
}
