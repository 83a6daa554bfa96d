import ArgumentParser
import WebImage

/// A format the tool writes images as: `get --format`, and `decode -o` by the file's extension.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case jpeg, png, webp, gif, avif, jxl

    /// The format a file name's extension asks for (`jpg`, `jpeg`, `png`, `apng`, `webp`,
    /// `gif`, `avif`, `jxl`, any case), or nil for any other extension.
    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png", "apng": self = .png
        case "webp": self = .webp
        case "gif": self = .gif
        case "avif": self = .avif
        case "jxl": self = .jxl
        default: return nil
        }
    }

    /// The extensions ``init(fileExtension:)`` knows, for messages.
    static let knownExtensions = "jpg, jpeg, png, apng, webp, gif, avif or jxl"

    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .gif: .gif
        case .avif: .avif
        case .jxl: .jxl
        }
    }
}
