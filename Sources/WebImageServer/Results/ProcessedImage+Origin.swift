import Foundation

extension ProcessedImage {
    /// Takes on what `origin` said of the source the result was made from, as far as
    /// `configuration` passes it on: its `Last-Modified` (raised to the
    /// ``ServerConfiguration/lastModifiedBuster``) with ``ServerConfiguration/useLastModified``,
    /// its lifetime with ``ServerConfiguration/cacheControlPassthrough``.
    mutating func take(_ origin: OriginHeaders, under configuration: ServerConfiguration) {
        if let modified = origin.answeredLastModified(under: configuration) { date(modified) }
        if configuration.cacheControlPassthrough { lifetime = origin.lifetime }
    }
}
