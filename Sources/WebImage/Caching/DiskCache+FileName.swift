import Foundation

extension DiskCache {
    /// The file name for `key`, SDWebImage's (`SDDiskCacheFileNameForKey`): the lowercase hex
    /// MD5 of the key's UTF-8 bytes, then `.` and the key's path extension when it has one.
    ///
    /// The extension is read as `NSURL` reads it: from the last component of the URL's path
    /// (query and fragment ignored), percent-decoded, after its last `.` (a leading or trailing
    /// dot marks none). Every NUL and `:` is then removed from it, as SDWebImage does, and it is
    /// kept when 1 to 222 bytes long (SDWebImage's `NAME_MAX − 32 − 1`, so the name fits in 255
    /// bytes). The same name as SDWebImage's for every key whose name fits a file system:
    /// SDWebImage counts UTF-16 units, so for a non-ASCII extension over 222 bytes, or one
    /// holding a decoded `/`, it names a file no Linux file system can hold, where WebImage
    /// names the entry without extension, a name SDWebImage's reads also try. The name always
    /// starts with a hex digit and never holds `/`, so any key, even `../x`, lands inside the folder.
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
        // Scans and trims ask this of every file in the folder: read the UTF-8 in place.
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count >= 32, bytes[..<32].allSatisfy(isLowercaseHexDigit) else { return false }
            guard bytes.count > 32 else { return true }
            let pathExtension = bytes[33...]
            return bytes[32] == UInt8(ascii: ".") && !pathExtension.isEmpty && pathExtension.count <= maxExtensionBytes
                && !pathExtension.contains { isForbiddenInExtension($0) || $0 == UInt8(ascii: ".") }
        }
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

    /// The longest extension a file name keeps, in UTF-8 bytes: SDWebImage's
    /// `SD_MAX_FILE_EXTENSION_LENGTH`, so the whole name fits the file system's 255 bytes.
    private static let maxExtensionBytes = 255 - 32 - 1

    /// The extension ``fileName(forKey:)`` gives the entry for `key`, or an empty string.
    private static func pathExtension(ofKey key: String) -> String {
        let component = CacheKey.lastPathComponent(of: key)
        let scalars = (component.removingPercentEncoding ?? String(component)).unicodeScalars
        guard let dot = scalars.lastIndex(of: "."), dot != scalars.startIndex else { return "" }
        var pathExtension = ""
        pathExtension.unicodeScalars.append(contentsOf: scalars[scalars.index(after: dot)...].filter { $0 != "\0" && $0 != ":" })
        let bytes = pathExtension.utf8
        guard (1...maxExtensionBytes).contains(bytes.count), !bytes.contains(where: isForbiddenInExtension) else { return "" }
        return pathExtension
    }

    /// The bytes an extension never holds: `/` and NUL cannot be in a file name, and SDWebImage
    /// removes `:`.
    private static func isForbiddenInExtension(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == 0 || byte == UInt8(ascii: ":")
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
