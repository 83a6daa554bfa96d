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

    /// A result from its parts.
    public init(data: Data, source: ImageSource, url: URL) {
        self.data = data
        self.source = source
        self.url = url
    }
}
