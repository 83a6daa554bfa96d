import Foundation

extension ProcessedImage {
    /// Takes on what `origin` said of the source the result was made from, as far as
    /// `configuration` passes it on: its `Last-Modified` (raised to the
    /// ``ServerConfiguration/lastModifiedBuster``) with ``ServerConfiguration/useLastModified``,
    /// its lifetime with ``ServerConfiguration/cacheControlPassthrough``.
    mutating func take(_ origin: OriginHeaders, under configuration: ServerConfiguration) {
        if configuration.useLastModified, let modified = origin.lastModified {
            date(max(modified, configuration.lastModifiedBuster ?? modified))
        }
        if configuration.cacheControlPassthrough { lifetime = origin.lifetime }
    }
}
