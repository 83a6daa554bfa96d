import Foundation

/// How a thumbor URL's image part that names no scheme is read (`webimage serve
/// --thumbor-loader`, thumbor's `LOADER`). A part with a scheme (`https://…`, `s3://…`) is read
/// as that scheme says with either loader, as thumbor's `file_loader_http_fallback` does.
public enum ThumborLoader: String, Sendable, Hashable, CaseIterable {
    /// Over HTTP: `example.com/cat.jpg` is `http://example.com/cat.jpg` (thumbor's `http_loader`).
    case http
    /// From `--local-root`: `cats/tom.jpg` is `local:///cats/tom.jpg` (thumbor's `file_loader`,
    /// whose `FILE_LOADER_ROOT_PATH` is the local root). The source policy keeps the file inside
    /// the root, as for any `local:///` source.
    case file

    /// The loader thumbor's `LOADER` setting names: `http` or `file`, or thumbor's module
    /// (`thumbor.loaders.http_loader`, `thumbor.loaders.file_loader`, or
    /// `thumbor.loaders.file_loader_http_fallback`, which is ``file`` here).
    public init?(setting: String) {
        let name = setting.hasPrefix("thumbor.loaders.") ? String(setting.dropFirst("thumbor.loaders.".count)) : setting
        switch name {
        case "http", "http_loader": self = .http
        case "file", "file_loader", "file_loader_http_fallback": self = .file
        default: return nil
        }
    }

    /// The source URL text of the decoded image part `image`, which names no scheme.
    func source(forImage image: String) throws(ProcessingURLError) -> String {
        switch self {
        case .http:
            return "http://" + image
        case .file:
            let path = image.drop { $0 == "/" }
            guard !path.isEmpty, let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
                throw .invalidSource("not a file path")
            }
            return "local:///" + escaped
        }
    }
}
