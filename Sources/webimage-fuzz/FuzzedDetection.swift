import Foundation
import WebImage
import WebImageCodecs

/// Runs format detection and the registry of every coder over fuzzed bytes, as a loader does
/// with bytes from the network: detect the format, pick the coder, decode.
struct FuzzedDetection {
    /// Every coder WebImageCodecs provides, as ``WebImageCodecs/registerDefaults(in:)`` registers them.
    private static let registry = ImageCoders(WebImageCodecs.defaultCoders)

    /// The fuzzed bytes.
    let data: Data

    /// Detects the format from `Data` and from bytes (which must agree) and looks for the EXIF
    /// block a server keeps copyright from, then decodes through the registry: a decoded image
    /// must have the detected format, and a refusal must name it.
    func run() -> String {
        let format = ImageFormat(detecting: data)
        let fromBytes = ImageFormat(detecting: [UInt8](data))
        invariant(format == fromBytes, "detected \(format) from Data but \(fromBytes) from [UInt8]")
        if let block = EXIFBlock.find(in: data) {
            invariant(block.count <= data.count, "an EXIF block of \(block.count) bytes in \(data.count)")
        }
        do {
            let image = try Self.registry.decode(data, options: FuzzTarget.options)
            invariant(image.format == format, "detected \(format) but decoded \(image.format)")
            return "\(format): decoded \(image.pixelWidth)x\(image.pixelHeight), \(image.frames.count) frame(s)"
        } catch ImageCodingError.unsupportedFormat(let refused) {
            invariant(refused == format, "detected \(format) but refused as \(refused)")
            return "\(format): unsupported"
        } catch {
            invariant(data.isEmpty || format != .undefined, "undetected bytes reached a coder: \(error)")
            return "\(format): error: \(error)"
        }
    }
}
