import Foundation

/// How a thumbor URL's image part is read (`webimage serve --thumbor-loader`, thumbor's
/// `LOADER`), as thumbor's loader modules read it.
public enum ThumborLoader: String, Sendable, Hashable, CaseIterable {
    /// Over HTTP: `example.com/cat.jpg` is `http://example.com/cat.jpg` (thumbor's
    /// `http_loader`); a part with a scheme (`https://…`, `s3://…`) is read as that scheme says.
    case http
    /// From `--local-root` only: `cats/tom.jpg` is `local:///cats/tom.jpg`, and so is a part
    /// with a scheme (`https://x/a.jpg` is the file `https:/x/a.jpg` under the root), as thumbor's
    /// `file_loader` (whose `FILE_LOADER_ROOT_PATH` is the local root) fetches nothing. The
    /// source policy keeps the file inside the root, as for any `local:///` source.
    case file
    /// A part starting `http://` or `https://` over HTTP; any other from `--local-root` first,
    /// and over HTTP (as `http://PART`) when there is no such file there (thumbor's
    /// `file_loader_http_fallback`). An overlay's image (`watermark`, `frame`) is read from the
    /// file only.
    case fileOrHTTP = "file-or-http"

    /// The loader thumbor's `LOADER` setting names: `http`, `file` or `file-or-http`, or
    /// thumbor's module (`thumbor.loaders.http_loader`, `thumbor.loaders.file_loader`,
    /// `thumbor.loaders.file_loader_http_fallback`).
    public init?(setting: String) {
        let name = setting.hasPrefix("thumbor.loaders.") ? String(setting.dropFirst("thumbor.loaders.".count)) : setting
        switch name {
        case "http", "http_loader": self = .http
        case "file", "file_loader": self = .file
        case "file-or-http", "file_loader_http_fallback": self = .fileOrHTTP
        default: return nil
        }
    }

    /// Whether this loader reads image parts from files, so thumbor reads its
    /// `FILE_LOADER_ROOT_PATH`.
    public var readsFiles: Bool { self != .http }

    /// The source URL text fetched when the file ``source(forImage:scheme:)`` names is missing:
    /// `http://` and the part, for ``fileOrHTTP`` and a part naming no scheme; nil otherwise.
    func fallback(forImage image: String, scheme: Substring?) -> String? {
        self == .fileOrHTTP && scheme == nil ? "http://" + image : nil
    }

    /// The source URL text of the decoded image part `image`, whose `scheme` (before `://`,
    /// nil when it names none) is read as this loader reads it.
    func source(forImage image: String, scheme: Substring?) throws(ProcessingURLError) -> String {
        switch self {
        case .http:
            return scheme == nil ? "http://" + image : image
        case .fileOrHTTP where scheme.map({ ["http", "https"].contains($0.lowercased()) }) == true:
            return image
        case .file, .fileOrHTTP:
            let path = image.drop { $0 == "/" }
            guard !path.isEmpty, let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
                throw .invalidSource("not a file path")
            }
            return "local:///" + escaped
        }
    }
}
