import Foundation

/// Bytes loaded by ``ImageManager/data(for:options:context:events:)``, not decoded: from the
/// disk cache or the loader, for a caller that decodes them itself.
public struct ImageDataResult: Sendable {
    /// The encoded bytes: as the loader delivered them (through the decryptor), or as the disk
    /// cache kept them.
    public var data: Data
    /// Where the bytes came from: ``ImageSource/disk`` for a cache hit, else the loader's kind.
    public var source: ImageSource
    /// The URL asked for.
    public var url: URL
    /// What the loader answered besides the bytes (status, `ETag`, `Last-Modified`,
    /// `Cache-Control`…) when they were loaded for this call; nil for bytes the cache held.
    public var response: ImageLoadResponse?

    /// A result from its parts.
    public init(data: Data, source: ImageSource, url: URL, response: ImageLoadResponse? = nil) {
        self.data = data
        self.source = source
        self.url = url
        self.response = response
    }
}
