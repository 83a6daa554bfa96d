/// Which response headers carry a URL's `cache_tags` (imgproxy's `IMGPROXY_CACHE_TAGS_FORMAT`),
/// so that a CDN can purge every result carrying a tag.
public enum CacheTagsFormat: String, Sendable, CaseIterable {
    /// Every header below.
    case all
    /// `X-Amz-Meta-Cache-Tag`, which CloudFront's invalidation by tag reads from the origin's answer.
    case cloudfront
    /// `Cache-Tag`, which Cloudflare's purge by tag reads.
    case cloudflare
    /// No header.
    case none

    /// The header fields the tags are written in, each a comma-separated list.
    var fieldNames: [String] {
        switch self {
        case .all: ["Cache-Tag", "X-Amz-Meta-Cache-Tag"]
        case .cloudfront: ["X-Amz-Meta-Cache-Tag"]
        case .cloudflare: ["Cache-Tag"]
        case .none: []
        }
    }
}
