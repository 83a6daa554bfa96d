import Foundation
import WebImage

/// A source URL as both URL forms read it (imgproxy's plain and base64 sources, thumbor's image
/// part): which schemes are taken, and the checks every source passes before it is loaded.
enum SourceURL {
    /// The source URL schemes accepted.
    static let schemes: Set<String> = ["http", "https", "local", "s3"]

    /// `http:/host/a.jpg` as `http://host/a.jpg` (and `https:`, and `local:/a.jpg` as
    /// `local:///a.jpg`): proxies and path normalisers merge the slashes of a plain source, and
    /// imgproxy puts them back.
    static func restoringDoubleSlash(_ text: String) -> String {
        for scheme in ["http:/", "https:/"] where text.lowercased().hasPrefix(scheme) && !text.dropFirst(scheme.count).hasPrefix("/") {
            return String(text.prefix(scheme.count)) + "/" + text.dropFirst(scheme.count)
        }
        if text.lowercased().hasPrefix("local:/"), !text.dropFirst(7).hasPrefix("/") {
            return String(text.prefix(7)) + "//" + text.dropFirst(7)
        }
        return text
    }

    /// `text` as an absolute `http` or `https` URL with a host, a `local` one, or an `s3` one
    /// with a bucket and a key (checked further by the object storage loader), without control
    /// characters.
    static func parse(_ text: String) throws(ProcessingURLError) -> URL {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidSource("control characters")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw .invalidSource("not an absolute URL")
        }
        guard schemes.contains(scheme) else { throw .invalidSource("scheme must be http, https, local or s3") }
        if scheme == "s3" {
            guard !(url.host ?? "").isEmpty, url.path.count > 1 else { throw .invalidSource("an s3 source is s3://BUCKET/KEY") }
            return url
        }
        if scheme != "local", let problem = HTTPRequestURL.problem(with: url) { throw .invalidSource("it \(problem)") }
        return url
    }
}
