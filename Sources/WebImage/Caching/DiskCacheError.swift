#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the disk cache could not do what was asked.
public enum DiskCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file operation failed: which one, on which path, with which `errno`.
    case io(operation: String, path: String, code: Int32)
    /// There is no entry for the key (extended data needs an entry to attach to).
    case noEntry(key: String)

    /// A one-line explanation with the system's wording for the error code.
    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            "disk cache: \(operation) failed for \(path): \(String(cString: strerror(code)))"
        case .noEntry(let key):
            "disk cache: no entry for key \(key.debugDescription)"
        }
    }
}
