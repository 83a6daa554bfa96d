import Foundation

extension ProcessedImage {
    /// Takes on what `origin` said of the source the result was made from, as far as
    /// `configuration` passes it on: its `Last-Modified` (raised to the
    /// ``ServerConfiguration/AnswerSettings/lastModifiedBuster``) with ``ServerConfiguration/AnswerSettings/useLastModified``,
    /// its lifetime with ``ServerConfiguration/AnswerSettings/cacheControlPassthrough``.
    mutating func take(_ origin: OriginHeaders, under configuration: ServerConfiguration.AnswerSettings) {
        if let modified = origin.answeredLastModified(under: configuration) { date(modified) }
        if configuration.cacheControlPassthrough { lifetime = origin.lifetime }
    }
}
