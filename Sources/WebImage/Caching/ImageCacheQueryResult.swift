import Foundation

/// What a cache query found: the image, the encoded bytes when they were read, and the tier
/// that answered (`.none` on a miss).
public struct ImageCacheQueryResult: Sendable {
    /// The decoded image, or nil on a miss.
    public var image: Image?
    /// The encoded bytes, when the disk was read (or `queryMemoryData` asked for them).
    public var data: Data?
    /// The tier that answered: `.memory`, `.disk`, or `.none` for a miss.
    public var cacheType: ImageCacheType

    /// A result from its parts.
    public init(image: Image?, data: Data?, cacheType: ImageCacheType) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
    }

    /// Nothing found.
    public static let miss = ImageCacheQueryResult(image: nil, data: nil, cacheType: .none)
}
