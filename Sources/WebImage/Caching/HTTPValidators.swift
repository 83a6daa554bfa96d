import Foundation

/// What a server said to identify a version of an image (ETag, Last-Modified): kept with the
/// cache entry so `refreshCached` can ask "has it changed?" with a conditional request.
public struct HTTPValidators: Sendable, Hashable, Codable {
    /// The response's `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The response's `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?

    /// Validators from their parts; nil when the server sent neither.
    public init?(etag: String?, lastModified: String?) {
        guard etag != nil || lastModified != nil else { return nil }
        self.etag = etag
        self.lastModified = lastModified
    }
}

extension ImageCaching {
    /// No validators: a tier that keeps no extended data never revalidates.
    public func validators(forKey key: String) async -> HTTPValidators? { nil }
    /// Keeps nothing: a tier without extended data ignores validators.
    public func setValidators(_ validators: HTTPValidators?, forKey key: String) async {}
}
