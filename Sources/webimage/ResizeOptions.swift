import ArgumentParser
import WebImage

/// A `--resize WxH` target size.
struct ResizeSize: ExpressibleByArgument {
    let size: PixelSize

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        size = PixelSize(width: width, height: height)
    }
}

/// How `--resize` fits the image into its size (`--mode`).
enum ResizeMode: String, ExpressibleByArgument, CaseIterable {
    case fill, fit
    case aspectFill = "aspect-fill"

    var scaleMode: ImageScaleMode {
        switch self {
        case .fill: .fill
        case .fit: .aspectFit
        case .aspectFill: .aspectFill
        }
    }
}
