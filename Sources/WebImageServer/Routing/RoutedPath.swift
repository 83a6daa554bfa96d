/// A request path the router has read and whose signature it has checked, with what its
/// responses derive from it, kept by ``ImageServerResponder`` so that the next request for the
/// same path is answered without parsing, verifying or deriving anything again. A class: a
/// memory hit takes it from the route cache for one reference count, where its URL, a large
/// value, would be copied field by field.
final class RoutedPath: Sendable {
    /// The URL the path describes.
    let url: ProcessingURL
    /// The name a `Content-Disposition` gives, without extension: the `filename` option or
    /// the source's last path component without its extension, reduced to safe ASCII.
    let fileStem: String
    /// The URL's ``ProcessingURL/cacheKey``, spelled once: the result cache's key for responses
    /// in the format the URL asks for.
    let cacheKey: String
    /// The path as a log line shows it: without the signature, cut short, printable ASCII.
    let loggedPath: String

    /// The route of `url`, read from a path that log lines show as `loggedPath`.
    init(_ url: ProcessingURL, loggedPath: String) {
        self.url = url
        self.loggedPath = loggedPath
        cacheKey = url.cacheKey
        let stem = url.options.filename ?? url.source.deletingPathExtension().lastPathComponent
        let safe = stem.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0 != "/" }
        fileStem = safe.isEmpty ? "image" : String(String.UnicodeScalarView(safe))
    }
}
