#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension DiskCache {
    /// The extended attribute that holds an entry's extended data.
    public static let extendedAttributeName = "user.webimage"

    /// The small blob stored with the entry for `key` (an ETag, a Last-Modified date, the
    /// original URL…), or nil when there is none (SDWebImage's `extendedDataForKey:`).
    public func extendedData(forKey key: String) -> Data? {
        guard let name = existingName(forKey: key) else { return nil }
        if configuration.usesExtendedAttributes,
           let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name),
           let values = attributes[Self.extendedAttributesKey] as? [String: Data],
           let data = values[Self.extendedAttributeName], !data.isEmpty
        {
            return data
        }
        let sidecar = CacheFile.contents(of: path + "/" + Self.sidecarName(for: name), stampingAccess: nil)
        return sidecar.flatMap { $0.data.isEmpty ? nil : $0.data }
    }

    /// Attaches `data` to the entry for `key`, or clears it when nil or empty. It goes into
    /// the `user.webimage` extended attribute when ``Configuration/usesExtendedAttributes`` is
    /// on and the file system takes it, else into a hidden sidecar file that is removed with
    /// the entry and never counted. A later ``store(_:forKey:)`` of the key clears it.
    public func setExtendedData(_ data: Data?, forKey key: String) throws(DiskCacheError) {
        guard let name = existingName(forKey: key) else { throw .noEntry(key: key) }
        let file = path + "/" + name
        let sidecar = path + "/" + Self.sidecarName(for: name)
        let value = data ?? Data()
        guard !value.isEmpty else {
            // Cleared: the attribute goes (none there is ENODATA, nothing to do), as SDWebImage removes it.
            if configuration.usesExtendedAttributes { Self.removeExtendedAttribute(of: file) }
            removeSidecar(sidecar, of: name)
            return
        }
        if configuration.usesExtendedAttributes,
           (try? FileManager.default.setAttributes(
               [Self.extendedAttributesKey: [Self.extendedAttributeName: value]], ofItemAtPath: file)) != nil
        {
            removeSidecar(sidecar, of: name)
            return
        }
        storing.wait()
        defer { storing.signal() }
        let temporary = try CacheFile.writeTemporary(value, in: path, date: configuration.clock(), sync: configuration.syncsWrites)
        let failure: DiskCacheError? = index.withLock { index in
            guard CacheFile.exists(file) else {
                unlink(temporary.path)
                return .noEntry(key: key)
            }
            guard rename(temporary.path, sidecar) == 0 else {
                let failure = DiskCacheError.io(operation: "rename", path: sidecar, code: errno)
                unlink(temporary.path)
                return failure
            }
            index.sidecars.insert(name)
            return nil
        }
        if let failure { throw failure }
    }

    /// Deletes the sidecar at `sidecar` of the entry `name`, which the index then forgets.
    private func removeSidecar(_ sidecar: String, of name: String) {
        index.withLock { index in
            unlink(sidecar)
            index.sidecars.remove(name)
        }
    }

    /// Foundation's attribute key for a file's extended attributes (name → value).
    private static let extendedAttributesKey = FileAttributeKey("NSFileExtendedAttributes")

    /// Removes the entry file's ``extendedAttributeName`` attribute, if it has one.
    private static func removeExtendedAttribute(of file: String) {
        #if canImport(Darwin)
        _ = removexattr(file, extendedAttributeName, 0)
        #else
        // Glibc's module leaves out <sys/xattr.h>: the C library's function, looked up once.
        _ = removeAttribute?(file, extendedAttributeName)
        #endif
    }

    #if !canImport(Darwin)
    /// The C library's `removexattr(path, name)`, or nil where it has none.
    private static let removeAttribute: (@convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "removexattr") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32).self)
    }()
    #endif

    /// The name under which `key` has an entry in the cache's own folder.
    private func existingName(forKey key: String) -> String? {
        recentNames.names(forKey: key).names.first { CacheFile.exists(path + "/" + $0) }
    }
}
