import Foundation

/// Cache keys as SDWebImage writes them, so caches stay readable across the two.
enum CacheKey {
    /// `key` with `-suffix` inserted before the URL path's extension (or appended when there
    /// is none): `https://a/b.png` + `x` → `https://a/b-x.png`.
    static func inserting(_ suffix: String, into key: String) -> String {
        guard let url = URL(string: key), !url.pathExtension.isEmpty,
              let range = key.range(of: "." + url.pathExtension, options: .backwards) else {
            return key + "-" + suffix
        }
        return key.replacingCharacters(in: range, with: "-\(suffix).\(url.pathExtension)")
    }

    /// SDWebImage's thumbnail suffix: `Thumbnail({width,height},preserveAspectRatio)`.
    static func thumbnailSuffix(_ size: PixelSize, preserveAspectRatio: Bool) -> String {
        "Thumbnail({\(size.width),\(size.height)},\(preserveAspectRatio ? 1 : 0))"
    }

    /// 2 or 3 for `@2x` / `@3x` before the extension (or at the end) of `key`, else 1.
    static func scaleFactor(of key: String) -> Double {
        let stem = URL(string: key)?.deletingPathExtension().lastPathComponent ?? key
        if stem.hasSuffix("@3x") { return 3 }
        if stem.hasSuffix("@2x") { return 2 }
        return 1
    }
}
