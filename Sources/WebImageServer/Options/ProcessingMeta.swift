/// A thumbor `meta` request: the answer is the JSON thumbor's `JSONEngine` writes (the source,
/// the crops and resizes, the target size, the focal points), or that JSON wrapped in a call of
/// ``callback`` (JSONP) when the URL's query names one.
public struct ProcessingMeta: Sendable, Hashable {
    /// The JavaScript function the JSON is passed to (`callback(json);`), or nil for bare JSON.
    public var callback: String?
    /// The image part of the URL as thumbor reports it (`source.url`): percent-decoded, without
    /// the `http://` the server adds to fetch it.
    public var imageURL: String
    /// Whether the URL asks for a left-to-right flip (`-W`): reported as `flip_horizontally`.
    public var flipsHorizontally = false
    /// Whether the URL asks for a top-to-bottom flip (`-H`): reported as `flip_vertically`.
    public var flipsVertically = false

    /// A request for the description of `imageURL`, wrapped in `callback` when given.
    public init(callback: String?, imageURL: String) {
        self.callback = callback
        self.imageURL = imageURL
    }

    /// The media type of the answer: `text/javascript` for JSONP, else `application/json`.
    public var mediaType: String { callback == nil ? "application/json" : "text/javascript" }

    /// The parts that change the answer, for the cache key.
    var canonical: String {
        "\(callback ?? ""):\(flipsHorizontally ? 1 : 0):\(flipsVertically ? 1 : 0):\(imageURL)"
    }
}
