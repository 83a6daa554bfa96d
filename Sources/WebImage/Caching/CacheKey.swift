import Foundation

/// Cache keys as SDWebImage writes them, so caches stay readable across the two.
///
/// Keys are read as URLs by plain string scanning: this runs on every load, memory hits
/// included, where parsing a `URL` would cost more than the whole cache lookup.
enum CacheKey {
    /// The suffix of a load that keeps an embedded profile's colours (``ColorManagement/preserve``).
    static let preservedColors = "com.webimage.preservedColors"

    /// `key` with `-suffix` inserted before the URL path's extension (or appended when there
    /// is none): `https://a/b.png?v=1` + `x` → `https://a/b-x.png?v=1`. In the path of a
    /// non-file URL the suffix is percent-encoded, as SDWebImage's `NSURLComponents` does.
    static func inserting(_ suffix: String, into key: String) -> String {
        guard let dot = extensionDot(of: lastPathComponent(of: key)) else { return key + "-" + suffix }
        let scheme = key.range(of: "://").map { key[..<$0.lowerBound].lowercased() }
        let inserted = scheme == nil || scheme == "file"
            ? suffix : suffix.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? suffix
        return String(key[..<dot]) + "-" + inserted + String(key[dot...])
    }

    /// `key` with the thumbnail suffix for `size` inserted, unless it carries it already (a key
    /// the manager made for a thumbnail load), so that a thumbnail is never filed under a
    /// full-size image's key.
    static func thumbnailed(_ key: String, _ size: PixelSize, preserveAspectRatio: Bool) -> String {
        let suffix = thumbnailSuffix(size, preserveAspectRatio: preserveAspectRatio)
        let encoded = suffix.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? suffix
        if key.contains(suffix) || key.contains(encoded) { return key }
        return inserting(suffix, into: key)
    }

    /// SDWebImage's thumbnail suffix, `Thumbnail({%f,%f},%d)`: `Thumbnail({64.000000,64.000000},1)`.
    static func thumbnailSuffix(_ size: PixelSize, preserveAspectRatio: Bool) -> String {
        "Thumbnail({\(size.width).000000,\(size.height).000000},\(preserveAspectRatio ? 1 : 0))"
    }

    /// 2 or 3 for `@2x` / `@3x` before the extension (or at the end) of the key's last path
    /// component, else 1.
    static func scaleFactor(of key: String) -> Double {
        let component = lastPathComponent(of: key)
        let stem = (extensionDot(of: component).map { component[..<$0] } ?? component).utf8
        if stem.suffix(3).elementsEqual("@3x".utf8) { return 3 }
        if stem.suffix(3).elementsEqual("@2x".utf8) { return 2 }
        return 1
    }

    /// The last component of the key's path: after the scheme and host of an absolute URL,
    /// before any query or fragment. Scans UTF-8 bytes: every delimiter is ASCII.
    static func lastPathComponent(of key: String) -> Substring {
        let bytes = key.utf8
        let slash = UInt8(ascii: "/"), query = UInt8(ascii: "?"), fragment = UInt8(ascii: "#")
        var start = bytes.startIndex
        // A scheme's `://` comes before any `/`, `?` or `#` (not inside a query, say).
        if let colon = bytes.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == slash || $0 == query || $0 == fragment }),
           bytes[colon...].starts(with: "://".utf8) {
            let authority = bytes.index(colon, offsetBy: 3)
            start = bytes[authority...].firstIndex { $0 == slash || $0 == query || $0 == fragment } ?? bytes.endIndex
        }
        let end = bytes[start...].firstIndex { $0 == query || $0 == fragment } ?? bytes.endIndex
        let componentStart = bytes[start..<end].lastIndex(of: slash).map { bytes.index(after: $0) } ?? start
        return key[componentStart..<end]
    }

    /// Where the extension of `component` starts (its last `.`), if it has one: not a leading
    /// dot, not a trailing one.
    private static func extensionDot(of component: Substring) -> String.Index? {
        let bytes = component.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex,
              bytes.index(after: dot) != bytes.endIndex else { return nil }
        return dot
    }
}
