import Foundation
import WebImage

/// Decodes the image a command was pointed at: a path, a `file://` URL, or an `http(s):` or
/// `data:` URL fetched with WebImage's own loaders.
enum InputImage {
    /// The image at `argument`, or a ``CommandFailure`` that says why there is none.
    static func load(_ argument: String) async throws -> Image {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(), scheme.count > 1 else {
            return try decodeFile(atPath: argument)
        }
        if url.isFileURL { return try decodeFile(atPath: url.path) }
        let downloader = HTTPImageDownloader()
        let loaders = ImageLoaders.standard(downloader: downloader)
        do {
            let result = try await loaders.requestImage(for: url, options: ImageLoaderOptions(), events: nil)
            try await downloader.shutdown()
            return result.image
        } catch {
            try? await downloader.shutdown()
            throw CommandFailure("cannot load \(argument): \(error)")
        }
    }

    private static func decodeFile(atPath path: String) throws -> Image {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(path): no such file or not readable")
        }
        return try ImageCoders.shared.decode(data)
    }
}
