import Foundation

/// A thumbor filter that lays an image fetched from a URL over the result, in the URL's order:
/// a `watermark`, or a nine-patch `frame` drawn around and over it.
public enum ThumborOverlay: Sendable, Hashable {
    /// `watermark(url,x,y,alpha[,w_ratio,h_ratio])`.
    case watermark(ThumborWatermark)
    /// `frame(url)`: the nine-patch at the URL frames the result (`NinePatchFrameTransformer`).
    case frame(URL)

    /// Where the overlay's image comes from, loaded as a source is (the same allowed sources,
    /// address policy and limits).
    public var url: URL {
        switch self {
        case let .watermark(watermark): watermark.url
        case let .frame(url): url
        }
    }

    /// The overlay in the canonical cache key: the watermark's part, or `frame:<length>:<url>`
    /// (the length keeps a URL from reading as the next option).
    var canonical: String {
        switch self {
        case let .watermark(watermark): return watermark.canonical
        case let .frame(url):
            let address = url.absoluteString
            return "frame:\(address.utf8.count):\(address)"
        }
    }
}
