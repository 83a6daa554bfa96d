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
    /// The cache's path names something other than a folder.
    case notAFolder(path: String)
    /// The folder holds files the cache did not write (`foreignFile` is one of them) and no
    /// `CACHEDIR.TAG`, so the cache refuses to take it over: its expiry and trims delete files.
    /// ``DiskCache/Configuration/adoptsExistingFolder`` takes it over anyway.
    case unownedFolder(path: String, foreignFile: String)

    /// A one-line explanation with the system's wording for the error code.
    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            "disk cache: \(operation) failed for \(path): \(String(cString: strerror(code)))"
        case .noEntry(let key):
            "disk cache: no entry for key \(key.debugDescription)"
        case .notAFolder(let path):
            "disk cache: \(path) is not a folder"
        case .unownedFolder(let path, let foreignFile):
            "disk cache: \(path) holds files the cache did not write (such as \(foreignFile.debugDescription)) "
                + "and no CACHEDIR.TAG, so it is not used as a cache folder; choose a new or empty folder, "
                + "or adopt this one explicitly (its other files are never touched)"
        }
    }
}
