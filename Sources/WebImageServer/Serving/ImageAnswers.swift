import Foundation
import Hummingbird

/// Builds the answers that carry an image, or say the client's copy is current: type, length,
/// caching fields, validators, `Vary`, the file name, the fallback image's status and marks,
/// the URL's cache tags, and 304s, as the configuration says (imgproxy's `IMGPROXY_TTL`, `_USE_ETAG`,
/// `_USE_LAST_MODIFIED`, `_CACHE_CONTROL_PASSTHROUGH`, `_SET_CANONICAL_HEADER`, `_CACHE_TAGS_FORMAT`,
/// `_FALLBACK_IMAGE_*`).
struct ImageAnswers: Sendable {
    /// A header field (HTTPTypes' `HTTPField`, which Hummingbird does not re-export).
    private typealias Field = HTTPFields.Element

    /// The lifetimes and validators answered.
    private let configuration: ServerConfiguration.AnswerSettings
    /// The fallback image's status and lifetime.
    private let overlays: ServerConfiguration.OverlaySettings
    /// Whether answers vary by the client hints (they are read).
    private let readsClientHints: Bool
    /// `Cache-Control` of images whose URL and origin give no lifetime: `max-age=TTL, public`.
    private let cacheControl: String
    /// The fields a URL's cache tags are answered in.
    private let cacheTagFields: [Field.Name]

    /// `Fallback-Image: 1` marks an answer made from the fallback image: the source could not be loaded.
    private static let fallbackField = Field.Name("Fallback-Image")!
    private static let originLengthField = Field.Name("X-Origin-Content-Length")!
    private static let originWidthField = Field.Name("X-Origin-Width")!
    private static let originHeightField = Field.Name("X-Origin-Height")!
    private static let resultWidthField = Field.Name("X-Result-Width")!
    private static let resultHeightField = Field.Name("X-Result-Height")!
    /// The `Vary` of answers when client hints are read: each hint field.
    private static let clientHintsVary = "Sec-CH-DPR, DPR, Sec-CH-Width, Width"

    /// The answers `configuration` describes, with the fallback image's status and lifetime
    /// from `overlays`, varying by the client hints when `readsClientHints`.
    init(_ configuration: ServerConfiguration.AnswerSettings, overlays: ServerConfiguration.OverlaySettings, readsClientHints: Bool) {
        self.configuration = configuration
        self.overlays = overlays
        self.readsClientHints = readsClientHints
        cacheControl = "max-age=\(configuration.ttl), public"
        cacheTagFields = configuration.cacheTagsFormat.fieldNames.compactMap { Field.Name($0) }
    }

    /// The image with its type, caching headers, a strong `ETag` and a `Last-Modified` (each
    /// unless configured off; 304 when `If-None-Match` has the tag or, without
    /// `If-None-Match`, `If-Modified-Since` is no earlier) and a `Content-Disposition` naming
    /// the file; without a body for `HEAD`. The fallback image is answered with its configured
    /// status and lifetime and `Fallback-Image: 1`.
    func answer(_ image: ProcessedImage, for route: RoutedPath, request: HTTPRequest, variesByAccept: Bool) -> PreparedResponse {
        var headers = HTTPFields()
        headers.reserveCapacity(12)
        // thumbor says nothing varies for an animated GIF, which it never converts.
        let variesByAccept = variesByAccept && !(route.url.options.animationsKeepFormat && image.format == .gif)
        let hinted = readsClientHints
        if variesByAccept || hinted {
            let fields = [variesByAccept ? "Accept" : nil, hinted ? Self.clientHintsVary : nil].compactMap { $0 }
            headers.append(Field(name: .vary, value: fields.joined(separator: ", ")))
        }
        if configuration.useETag { headers.append(Field(name: .eTag, value: configuration.answeredETag(image.etag))) }
        if configuration.useLastModified { headers.append(Field(name: .lastModified, value: image.lastModified)) }
        if configuration.setCanonicalHeader, let link = Self.canonicalLink(to: route.url.source) {
            headers.append(Field(name: Self.linkField, value: link))
        }
        if configuration.enableDebugHeaders, let dimensions = image.dimensions {
            for (name, value) in [(Self.originLengthField, dimensions.sourceBytes), (Self.originWidthField, dimensions.sourceWidth),
                                  (Self.originHeightField, dimensions.sourceHeight), (Self.resultWidthField, dimensions.resultWidth),
                                  (Self.resultHeightField, dimensions.resultHeight)] {
                headers.append(Field(name: name, value: String(value)))
            }
        }
        let tags = route.url.options.cacheTags
        if !tags.isEmpty {
            for name in cacheTagFields { headers.append(Field(name: name, value: tags.joined(separator: ","))) }
        }
        if image.isFallback {
            // A fallback stands in for an image that may exist soon: kept briefly, never 304.
            let ttl = overlays.fallbackImageTTL
            headers.append(Field(name: .cacheControl, value: "max-age=\(ttl > 0 ? ttl : configuration.ttl), public"))
            headers.append(Field(name: Self.fallbackField, value: "1"))
        } else {
            headers.append(Field(name: .cacheControl, value: cacheControl(of: route, lifetime: image.lifetime)))
            if isNotModified(image, request: request) {
                return PreparedResponse(status: .notModified, headerFields: headers)
            }
        }
        let meta = route.url.options.meta, isInfo = route.url.options.info != nil
        headers.append(Field(name: .contentType, value: isInfo ? "application/json" : meta?.mediaType ?? image.mediaType))
        PreparedResponse.appendContentPolicy(to: &headers)
        headers.append(Field(name: .contentLength, value: String(image.body.readableBytes)))
        let disposition: String = route.url.options.returnAttachment ? "attachment" : "inline"
        let fileExtension = isInfo ? "json" : meta.map { $0.callback == nil ? "json" : "js" } ?? image.format.fileExtension
        let fileName: String = route.fileStem + "." + fileExtension
        headers.append(Field(name: .contentDisposition, value: disposition + "; filename=\"" + fileName + "\""))
        let body = request.method == .head ? nil : image.body
        let status: HTTPResponse.Status = image.isFallback ? HTTPResponse.Status(code: overlays.fallbackImageHTTPCode) : .ok
        return PreparedResponse(status: status, headerFields: headers, body: body)
    }

    /// The 304 answered when the origin said the client's copy of the source is current (its
    /// validators were sent on with the download): the origin's `ETag` and `Last-Modified` as
    /// the configuration passes them on, and the image's `Cache-Control`.
    func notModified(_ origin: OriginHeaders, for route: RoutedPath?) -> PreparedResponse {
        var headers = HTTPFields()
        if configuration.useETag, let etag = origin.etag { headers.append(Field(name: .eTag, value: configuration.answeredETag(etag))) }
        if let modified = origin.answeredLastModified(under: configuration) {
            headers.append(Field(name: .lastModified, value: HTTPDate.string(from: modified)))
        }
        let lifetime = configuration.cacheControlPassthrough ? origin.lifetime : nil
        headers.append(Field(name: .cacheControl, value: route.map { cacheControl(of: $0, lifetime: lifetime) } ?? cacheControl))
        return PreparedResponse(status: .notModified, headerFields: headers)
    }

    /// The `Cache-Control` of an image of `route` whose origin gave it `lifetime`: the URL's
    /// own max-age (thumbor's `max_age` filter) first, then the origin's lifetime, then the TTL.
    private func cacheControl(of route: RoutedPath, lifetime: ResultLifetime?) -> String {
        if let maxAge = route.url.options.maxAge { return maxAge > 0 ? "max-age=\(maxAge),public" : "no-cache" }
        return lifetime?.fieldValue(at: Date()) ?? cacheControl
    }

    /// `Link`, for the canonical source.
    private static let linkField = Field.Name("Link")!

    /// `<SOURCE>; rel="canonical"` for an `http` or `https` source, with every byte a field
    /// value or a `<…>` reference may not hold percent-encoded; nil for other schemes.
    static func canonicalLink(to source: URL) -> String? {
        guard let scheme = source.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        var reference = ""
        for byte in source.absoluteString.utf8 {
            if (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "\"") {
                reference.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                reference += byte < 0x10 ? "%0" : "%"
                reference += String(byte, radix: 16, uppercase: true)
            }
        }
        return "<\(reference)>; rel=\"canonical\""
    }

    /// Whether the client's copy of `image` is current: `If-None-Match` lists its tag (or `*`),
    /// or, without `If-None-Match`, `If-Modified-Since` is no earlier than its creation; a
    /// field the configuration turns off (``ServerConfiguration/AnswerSettings/useETag``,
    /// ``ServerConfiguration/AnswerSettings/useLastModified``) is not read.
    private func isNotModified(_ image: ProcessedImage, request: HTTPRequest) -> Bool {
        let tags = configuration.useETag ? request.headerFields[values: .ifNoneMatch] : []
        guard tags.isEmpty else {
            let answered = configuration.answeredETag(image.etag)
            return tags.flatMap { $0.split(separator: ",") }
                .contains { let tag = $0.trimmingCharacters(in: .whitespaces); return tag == answered || tag == "*" }
        }
        guard configuration.useLastModified else { return false }
        return request.headerFields[.ifModifiedSince].flatMap(HTTPDate.date(from:)).map { image.created <= $0 } ?? false
    }
}
