import Foundation

/// The keys one load is cached under, derived in one place with SDWebImage's rules, so caches
/// stay readable across the two.
///
/// `https://a/cat.png` with a 64 px thumbnail and a grayscale transformer:
/// - ``original``: `https://a/cat.png` (the filtered URL): the downloaded bytes.
/// - ``thumbnail``: `https://a/cat-Thumbnail({64.000000,64.000000},1).png`: the image as decoded.
/// - ``image``: `https://a/cat-Thumbnail({64.000000,64.000000},1)-com.webimage.grayscale.png`
///   (the transformer's key inserted): the image as delivered.
///
/// A load that keeps the stored colours (``ColorManagement/preserve``) has
/// `-com.webimage.preservedColors` inserted into ``thumbnail`` (and so into ``image``): its
/// pixels differ from the sRGB ones a default load caches for the same URL.
public struct ImageCacheKeys: Sendable, Hashable {
    /// The key of the original bytes: the URL through the context's key filter.
    public let original: String
    /// ``thumbnail`` when it differs from ``original``; most loads decode no thumbnail, and a
    /// key kept once is one reference fewer to count on every memory hit.
    private let thumbnailKey: String?
    /// ``image`` when it differs from ``thumbnail``.
    private let imageKey: String?

    /// The key of the image as decoded: ``original`` with SDWebImage's thumbnail suffix when the
    /// load decodes a thumbnail, and the preserved-colours suffix when it keeps an embedded
    /// profile's colours; else ``original``.
    public var thumbnail: String { thumbnailKey ?? original }
    /// The key of the image as delivered: ``thumbnail`` with the transformer's key inserted
    /// when there is a transformer, else ``thumbnail``. The memory and disk caches hold the
    /// delivered image under it.
    public var image: String { imageKey ?? thumbnail }

    /// The keys for `url` (whose absolute string is `urlString`), filtered by `filter` (nil,
    /// or a nil answer, keeps the whole URL), decoded with `decodeOptions` and transformed by a
    /// transformer whose key is `transformerKey`.
    init(url: URL, urlString: String, filter: (@Sendable (URL) -> String?)?, decodeOptions: ImageDecodeOptions?,
         transformerKey: String?) {
        let original = filter?(url) ?? urlString
        var thumbnailKey = decodeOptions?.thumbnailPixelSize.map {
            CacheKey.thumbnailed(original, $0, preserveAspectRatio: decodeOptions?.preserveAspectRatio ?? true)
        }
        if decodeOptions?.colorManagement == .preserve {
            thumbnailKey = CacheKey.inserting(CacheKey.preservedColors, into: thumbnailKey ?? original)
        }
        self.original = original
        self.thumbnailKey = thumbnailKey
        imageKey = transformerKey.map { CacheKey.inserting($0, into: thumbnailKey ?? original) }
    }

    /// ``image`` alone, as ``init(url:urlString:filter:decodeOptions:transformerKey:)`` would
    /// make it: what a memory lookup needs. Most loads filter no key, decode no thumbnail and
    /// transform nothing; for them the URL is the key, with no keys value made and dropped.
    static func image(url: URL, urlString: String, filter: (@Sendable (URL) -> String?)?, decodeOptions: ImageDecodeOptions?,
                      transformerKey: String?) -> String {
        if filter == nil, decodeOptions == nil, transformerKey == nil { return urlString }
        return ImageCacheKeys(url: url, urlString: urlString, filter: filter, decodeOptions: decodeOptions,
                              transformerKey: transformerKey).image
    }
}
