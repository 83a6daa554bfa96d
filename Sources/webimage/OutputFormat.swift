import ArgumentParser
import WebImage

/// A format the tool writes images as: `get --format`, and `decode -o` by the file's extension.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case jpeg, png, webp, gif, avif, jxl

    /// The format a file name's extension asks for (`jpg`, `jpeg`, `png`, `apng`, `webp`,
    /// `gif`, `avif`, `jxl`, any case, as ``ImageFormat/init(name:)`` reads them; `apng` is
    /// PNG's animated form), or nil for any other extension.
    init?(fileExtension: String) {
        let name = fileExtension.lowercased() == "apng" ? "png" : fileExtension
        guard let format = ImageFormat(name: name), let output = OutputFormat(rawValue: format.rawValue) else { return nil }
        self = output
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
