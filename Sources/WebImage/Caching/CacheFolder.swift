#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which folders a ``DiskCache`` may take as its own, and the mark it leaves in them.
///
/// A cache deletes files (expiry, trims, ``DiskCache/removeAll()``), so pointing one at the
/// wrong folder must not cost anyone their files. The cache marks the folders it creates with
/// the Cache Directory Tagging convention (a `CACHEDIR.TAG` file, which backup tools also
/// read), and only takes an existing folder that is tagged, empty, or holds nothing but files
/// a cache could have written (a folder of an earlier WebImage or of SDWebImage). Whatever the
/// folder, the cache only ever touches files whose names it could have produced.
enum CacheFolder {
    /// The tag file's name, from the convention.
    static let tagName = "CACHEDIR.TAG"

    /// The line a tag file must start with, from the convention.
    static let tagSignature = "Signature: 8a477f597d28d172789f06886806bc55"

    /// What the cache writes into the tag file.
    static let tagContents = """
        \(tagSignature)
        # This file is a cache directory tag created by WebImage's disk cache.
        # For information about cache directory tags, see https://bford.info/cachedir/

        """

    /// Checks that a cache may own the folder at `path`, and tags it when it takes it over.
    ///
    /// A missing folder is fine (the first store creates and tags it). An existing one must be
    /// tagged, empty, or hold only names a cache writes; otherwise it is refused unless
    /// `adoptingExisting`. A folder adopted that way is not tagged: it holds someone's files,
    /// and a tag would tell their backup tool to skip them.
    static func claim(_ path: String, adoptingExisting: Bool) throws(DiskCacheError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .io(operation: "stat", path: path, code: errno)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(path: path) }
        if isTagged(path) { return }
        guard access(path, R_OK | X_OK) == 0 else { throw .io(operation: "list", path: path, code: errno) }
        // A tag another process of ours finished writing since `isTagged` looked is no stranger.
        let isOurs = { (name: String) in name == tagName || DiskCache.isCacheFileName(name) }
        if let foreign = CacheFile.names(in: path).sorted().first(where: { !isOurs($0) }) {
            guard adoptingExisting else { throw .unownedFolder(path: path, foreignFile: foreign) }
            return
        }
        tag(path)
    }

    /// Creates the folder at `path` (and its parents) and tags it.
    static func create(_ path: String) {
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else { return }
        tag(path)
    }

    /// Whether `path` holds a tag file that starts with the convention's signature.
    static func isTagged(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path + "/" + tagName) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: tagSignature.utf8.count)) ?? Data()
        return head.elementsEqual(tagSignature.utf8)
    }

    /// Writes the tag file unless it is there; a folder the process cannot write stays untagged.
    /// The tag goes through a temporary file named as the cache names them, so a process that
    /// lists the folder meanwhile sees nothing it would take for a stranger's file.
    private static func tag(_ path: String) {
        guard !isTagged(path),
              let temporary = try? CacheFile.writeTemporary(Data(tagContents.utf8), in: path, date: Date(), sync: false)
        else { return }
        if rename(temporary.path, path + "/" + tagName) != 0 { unlink(temporary.path) }
    }
}
