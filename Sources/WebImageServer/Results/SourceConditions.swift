import AsyncHTTPClient
import Foundation
import Locking
import WebImage

/// What a client's request sends on to a source's origin, as imgproxy forwards it: its
/// validators (`If-None-Match`, `If-Modified-Since`) — when the result has to be made and its
/// source is not cached, the download asks the origin whether the client's copy is current,
/// and an origin's `304 Not Modified` is answered as a 304
/// (``ProcessingError/sourceNotModified(_:)``) without making anything — and the fields sent on
/// as they came (its cookies, thumbor's forwarded headers), with which the source and the
/// result are the client's alone (``isPrivate``).
public struct SourceConditions: Sendable, Hashable {
    /// The client's `If-None-Match`, sent as it came.
    public var ifNoneMatch: String?
    /// The client's `If-Modified-Since`, sent as it came.
    public var ifModifiedSince: String?
    /// Fields of the client's request sent on with the download, replacing the downloader's
    /// own: its cookies whose scope covers the source
    /// (``ServerConfiguration/SourceSettings/cookiePassthrough``), the headers thumbor's
    /// `HTTP_LOADER_FORWARD_*` settings name.
    public var forwarded: [ForwardedField]

    /// Conditions from their parts.
    public init(ifNoneMatch: String? = nil, ifModifiedSince: String? = nil, forwarded: [ForwardedField] = []) {
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.forwarded = forwarded
    }

    /// Whether what the origin answers may be the client's alone (fields of its request went
    /// with the download): then neither the source nor the result is read from or kept in any
    /// cache, and no other request joins the making.
    public var isPrivate: Bool { !forwarded.isEmpty }

    /// The conditions of a request with `ifNoneMatch` and `ifModifiedSince` fields that
    /// `configuration` sends on: `If-None-Match` with ``ServerConfiguration/AnswerSettings/useETag``
    /// (its tags carrying the ``ServerConfiguration/AnswerSettings/etagBuster``, without it, when there is one),
    /// `If-Modified-Since` with ``ServerConfiguration/AnswerSettings/useLastModified`` when it is later than
    /// ``ServerConfiguration/AnswerSettings/lastModifiedBuster`` (a copy from before it is stale, and an
    /// unreadable date is taken for one); and `forwarded` as they are; nil when none is left.
    init?(ifNoneMatch: String?, ifModifiedSince: String?, forwarded: [ForwardedField] = [],
          answers configuration: ServerConfiguration.AnswerSettings) {
        self.forwarded = forwarded
        if configuration.useETag, configuration.etagBuster != nil, let ifNoneMatch {
            // Each tag as the origin gave it: only those carrying the buster, without it.
            let tags = ifNoneMatch.split(separator: ",").compactMap { configuration.originETag($0.trimmingCharacters(in: .whitespaces)) }
            self.ifNoneMatch = tags.isEmpty ? nil : tags.joined(separator: ", ")
        } else {
            self.ifNoneMatch = configuration.useETag ? ifNoneMatch : nil
        }
        if configuration.useLastModified, let ifModifiedSince {
            if let buster = configuration.lastModifiedBuster {
                self.ifModifiedSince = HTTPDate.date(from: ifModifiedSince).flatMap { $0 > buster ? ifModifiedSince : nil }
            } else {
                self.ifModifiedSince = ifModifiedSince
            }
        }
        if self.ifNoneMatch == nil && self.ifModifiedSince == nil && forwarded.isEmpty { return nil }
    }

    /// The head of the origin's answer to a conditional download, kept by the load's response
    /// modifier: a 304 carries no body, only what the origin says of the source.
    final class AnsweredHead: Sendable {
        private let head = Mutex<ImageLoadResponse?>(nil)
        /// What the origin answered, once it has.
        var response: ImageLoadResponse? { head.withLock { $0 } }
        /// Keeps `response`.
        func keep(_ response: ImageLoadResponse) { head.withLock { $0 = response } }
    }

    /// Has the loads of `context` ask with these conditions; the head of the origin's answer
    /// is kept in the ``AnsweredHead`` returned. A context with modifiers shares no download with
    /// other loads; a private one neither reads nor fills a cache.
    func ask(in context: inout ImageContext) -> AnsweredHead {
        let answer = AnsweredHead()
        context.requestModifier = { [self] request in
            var request = request
            if let ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: ifNoneMatch) }
            if let ifModifiedSince { request.headers.replaceOrAdd(name: "If-Modified-Since", value: ifModifiedSince) }
            for field in forwarded { request.headers.replaceOrAdd(name: field.name, value: field.value) }
            return request
        }
        if isPrivate {
            context.queryCacheType = ImageCacheType.none
            context.storeCacheType = ImageCacheType.none
            context.originalQueryCacheType = ImageCacheType.none
            context.originalStoreCacheType = ImageCacheType.none
        }
        context.responseModifier = { response in
            answer.keep(response)
            return response
        }
        return answer
    }
}
