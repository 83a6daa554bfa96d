import Foundation
import Locking
import WebImage

/// Writes loaded images into a folder for `webimage get`: the downloaded bytes as they are, or
/// the image encoded in the format asked for, else in its source format (an animation stays
/// animated: GIF, APNG and WebP encode every frame with its duration and the loop count).
/// Names come from the URLs; a name already taken in this run gets the URL's position in front.
final class ImageSaver: Sendable {
    let folder: URL
    let format: OutputFormat?
    let quality: Double
    /// Whether the downloaded bytes may be written as they are: not when the image was
    /// decoded smaller or transformed.
    let keepsDownloadedBytes: Bool
    private let taken = Mutex<Set<String>>([])

    init(folder: String, format: OutputFormat?, quality: Double, keepsDownloadedBytes: Bool) throws(CommandFailure) {
        self.folder = URL(fileURLWithPath: folder, isDirectory: true)
        self.format = format
        self.quality = quality
        self.keepsDownloadedBytes = keepsDownloadedBytes
        do {
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(folder): \(SystemErrorText.describe(error))")
        }
    }

    /// Writes `result`; returns the path written.
    func save(_ result: ImageResult, index: Int) throws -> String {
        let (bytes, imageFormat) = try encoded(result)
        let named = result.url.isFileURL || result.url.host != nil
        let stem = named ? result.url.deletingPathExtension().lastPathComponent : ""
        var name = "\(stem.isEmpty || stem == "/" ? "image" : stem).\(imageFormat.fileExtension)"
        taken.withLock { taken in
            if taken.contains(name) { name = "\(index + 1)-\(name)" }
            taken.insert(name)
        }
        let file = folder.appendingPathComponent(name)
        do {
            try bytes.write(to: file)
        } catch {
            throw CommandFailure("cannot write \(file.path): \(SystemErrorText.describe(error))")
        }
        return file.path
    }

    private func encoded(_ result: ImageResult) throws -> (Data, ImageFormat) {
        if format == nil && keepsDownloadedBytes, let data = result.data, !result.image.isIncomplete {
            let detected = ImageFormat(detecting: data)
            if detected != .undefined { return (data, detected) }
        }
        let source = result.image.format
        let target = format?.imageFormat
            ?? (ImageCoders.shared.canEncode(source) ? source : result.image.pixels.hasTransparency ? .png : .jpeg)
        let data = try ImageCoders.shared.encode(result.image, as: target, options: ImageEncodeOptions(quality: quality))
        return (data, target)
    }
}
