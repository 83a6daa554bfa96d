#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A cache folder held open for the length of a scan or a trim, so that each of its many
/// `stat`s and `unlink`s resolves a file name alone (`fstatat`, `unlinkat`) instead of walking
/// the folder's whole path again. When the folder cannot be opened, paths are used.
final class OpenCacheFolder {
    /// The folder's path.
    let path: String
    private let descriptor: Int32

    /// Opens the folder at `path`.
    init(_ path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The status of the regular file `name` in the folder (symbolic links are not followed), or nil.
    func status(_ name: String) -> CacheFile.Status? {
        var info = stat()
        let found = descriptor >= 0 ? fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) : lstat(path + "/" + name, &info)
        return found == 0 ? CacheFile.Status(info) : nil
    }

    /// Deletes the file `name` from the folder, if it is there.
    func remove(_ name: String) {
        if descriptor >= 0 {
            unlinkat(descriptor, name, 0)
        } else {
            unlink(path + "/" + name)
        }
    }
}
