import Hummingbird
import WebImage

/// The output format chosen from a request's `Accept`, as the configuration allows it (imgproxy's
/// `IMGPROXY_AUTO_*` and `IMGPROXY_ENFORCE_*`, thumbor's `AUTO_*`): for a URL naming no format,
/// among the accepted formats of its URL form; for one naming a format, among the enforced
/// ones, to be written in its place. An answer so chosen says `Vary: Accept`.
struct FormatNegotiation: Sendable {
    /// The formats chosen from `Accept` for URLs that name none, in order of preference, by
    /// URL form (``ServerConfiguration/FormatSettings/acceptedFormats(for:)``).
    private let acceptedFormats: [ProcessingURLForm: [ImageFormat]]
    /// The accepted formats an opaque still PNG's JPEG goes before, by URL form
    /// (``ServerConfiguration/FormatSettings/formatsOpaquePNGToJPEGOutranks(for:)``).
    private let formatsOpaquePNGToJPEGOutranks: [ProcessingURLForm: [ImageFormat]]
    /// The formats chosen from `Accept` for URLs that name one too (imgproxy's
    /// `IMGPROXY_ENFORCE_WEBP`), in order of preference.
    private let enforcedFormats: [ImageFormat]

    /// The negotiation `formats` describes, worked out once for both URL forms.
    init(_ formats: ServerConfiguration.FormatSettings) {
        acceptedFormats = [.imgproxy: formats.acceptedFormats(for: .imgproxy), .thumbor: formats.acceptedFormats(for: .thumbor)]
        formatsOpaquePNGToJPEGOutranks = [.imgproxy: formats.formatsOpaquePNGToJPEGOutranks(for: .imgproxy),
                                          .thumbor: formats.formatsOpaquePNGToJPEGOutranks(for: .thumbor)]
        enforcedFormats = formats.enforcedFormats
    }

    /// The URL a request for `route` asks for, with its cache key, when formats are chosen
    /// from `Accept` (the answer then varies by `Accept`): the route's URL with the formats
    /// `fields` accept among the choices; nil when the route's own URL is asked for.
    func negotiated(_ route: RoutedPath, accepting fields: HTTPFields) -> (url: ProcessingURL, cacheKey: String)? {
        guard !route.url.options.describesSource else { return nil }
        let form = route.url.form
        let named = route.url.options.format
        let choices = named == nil ? acceptedFormats[form] ?? [] : enforcedFormats
        guard !choices.isEmpty else { return nil }
        var negotiated = route.url
        let ranges = AcceptedMediaRanges(fields[values: .accept])
        let accepted = choices.filter { ranges.accept($0, imageWildcard: form == .thumbor) }
        if named == nil {
            negotiated.options.acceptedFormats = accepted
            negotiated.options.formatsOpaquePNGToJPEGOutranks = formatsOpaquePNGToJPEGOutranks[form] ?? []
        } else {
            negotiated.options.enforcedFormats = accepted
        }
        return (negotiated, negotiated.cacheKey)
    }
}
