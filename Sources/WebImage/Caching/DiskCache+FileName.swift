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
        guard name.hasPrefix("."), name.hasSuffix(sidecarSuffix), name.count > 1 + sidecarSuffix.count else { return nil }
        return String(name.dropFirst().dropLast(sidecarSuffix.count))
    }

    private static let sidecarSuffix = ".meta"

    /// The key's path extension, read as a URL's.
    private static func pathExtension(ofKey key: String) -> String {
        let pathExtension = CacheKey.pathExtension(of: key)
        let forbidden = { (byte: UInt8) in byte == UInt8(ascii: "/") || byte == 0 || byte == UInt8(ascii: ":") }
        guard pathExtension.utf8.count <= 200, !pathExtension.utf8.contains(where: forbidden) else { return "" }
        return String(pathExtension)
    }
}
