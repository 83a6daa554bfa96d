import Foundation

extension DiskCache {
    /// The file name for `key`, SDWebImage's: the lowercase hex MD5 of the key's UTF-8 bytes,
    /// then `.` and the key's path extension as a URL (query ignored). An extension longer
    /// than 200 bytes or holding `/`, NUL or `:` is dropped. The name always starts with a hex
    /// digit and never holds `/`, so any key, even `../x`, lands inside the folder.
    public static func fileName(forKey key: String) -> String {
        candidateNames(forKey: key)[0]
    }

    /// The folder SDWebImage would use on Linux for `namespace`:
    /// `$XDG_CACHE_HOME/webimage/<namespace>`, or `~/.cache/webimage/<namespace>` when
    /// `XDG_CACHE_HOME` is unset or not absolute. A `/` in the namespace becomes `_`.
    public static func defaultDirectory(namespace: String = "default") -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        var folder = namespace.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\0", with: "_")
        if folder.isEmpty || folder == "." || folder == ".." { folder = "_" + folder }
        return base.appendingPathComponent("webimage", isDirectory: true).appendingPathComponent(folder, isDirectory: true)
    }

    /// Whether `name` is one the cache could have written: an entry's name, the hidden sidecar
    /// of one, or a temporary file of a write. Expiry, trims, ``removeAll()`` and the counts
    /// consider these names only, so other files in the folder are never touched.
    static func isCacheFileName(_ name: String) -> Bool {
        isEntryFileName(name) || entryName(ofSidecar: name) != nil || CacheFile.isTemporary(name)
    }

    /// Whether `name` has the shape of an entry's file name: 32 lowercase hex digits, then
    /// optionally `.` and an extension as ``fileName(forKey:)`` keeps it. A file named so in the
    /// cache's folder is taken for an entry, whoever wrote it.
    public static func isEntryFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 32, bytes[..<32].allSatisfy(isLowercaseHexDigit) else { return false }
        guard bytes.count > 32 else { return true }
        let pathExtension = bytes[33...]
        return bytes[32] == UInt8(ascii: ".") && !pathExtension.isEmpty && pathExtension.count <= maxExtensionBytes
            && !pathExtension.contains { isForbiddenInExtension($0) || $0 == UInt8(ascii: ".") }
    }

    /// The names a read tries for `key`: the full name, then the name without extension.
    static func candidateNames(forKey key: String) -> [String] {
        let hash = MD5.hex(key)
        let pathExtension = pathExtension(ofKey: key)
        return pathExtension.isEmpty ? [hash] : [hash + "." + pathExtension, hash]
    }

    /// The hidden sidecar that holds extended data for the entry `name` when extended
    /// attributes are off or refused. No key's file name starts with a dot, so it never
    /// collides with an entry.
    static func sidecarName(for name: String) -> String {
        "." + name + sidecarSuffix
    }

    /// The entry a sidecar name belongs to, or nil when `name` is not a sidecar's.
    static func entryName(ofSidecar name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(sidecarSuffix) else { return nil }
        let entry = String(name.dropFirst().dropLast(sidecarSuffix.count))
        return isEntryFileName(entry) ? entry : nil
    }

    private static let sidecarSuffix = ".meta"

    /// The longest extension a file name keeps, in UTF-8 bytes.
    private static let maxExtensionBytes = 200

    /// The key's path extension, read as a URL's.
    private static func pathExtension(ofKey key: String) -> String {
        let pathExtension = CacheKey.pathExtension(of: key)
        guard pathExtension.utf8.count <= maxExtensionBytes, !pathExtension.utf8.contains(where: isForbiddenInExtension) else {
            return ""
        }
        return String(pathExtension)
    }

    /// The bytes that drop an extension from a file name: `/`, NUL and `:`.
    private static func isForbiddenInExtension(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == 0 || byte == UInt8(ascii: ":")
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
