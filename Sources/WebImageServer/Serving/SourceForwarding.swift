import Hummingbird

/// The fields of a client's request that go on to a source's origin with the download
/// (``SourceConditions/forwarded``): its cookies whose scope covers the source
/// (``CookiePassthrough``), and for a thumbor URL the headers thumbor's loader forwards
/// (``ThumborHeaderForwarding``). A download carrying any is the request's own and touches no
/// cache.
struct SourceForwarding: Sendable {
    /// The cookie rule, or nil when cookies stay here.
    var cookies: CookiePassthrough?
    /// The thumbor header rule.
    var thumborHeaders = ThumborHeaderForwarding()

    /// Whether anything can go on at all.
    var forwardsAny: Bool { cookies != nil || thumborHeaders.forwardsAny }

    /// The fields of `request` that go on with the download of `url`'s source.
    func fields(for url: ProcessingURL, in request: HTTPRequest) -> [ForwardedField] {
        var fields = url.form == .thumbor ? thumborHeaders.fields(of: request.headerFields) : []
        if let cookie = cookies?.cookie(for: url.source, in: request) {
            fields.removeAll { $0.name.lowercased() == "cookie" }
            fields.append(ForwardedField(name: "Cookie", value: cookie))
        }
        return fields
    }
}
