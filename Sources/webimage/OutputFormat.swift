import ArgumentParser
import WebImage

/// A format `webimage get` can save images as.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case jpeg, png, webp, gif

    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .gif: .gif
        }
    }
}
