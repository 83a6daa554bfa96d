import Foundation
import WebImage

/// The image a command was pointed at: a path, a `file://` URL, or an `http(s):` or `data:` URL
/// fetched with WebImage's own loaders.
enum InputImage {
    /// The image at `argument`, decoded with `options`, or a ``CommandFailure`` that says why
    /// there is none.
    static func load(_ argument: String, options: ImageDecodeOptions = ImageDecodeOptions()) async throws -> Image {
        try ImageCoders.shared.decode(try await data(argument), options: options)
    }

    /// The encoded bytes at `argument`, or a ``CommandFailure`` that says why there are none.
    /// A file is only read; the loaders always decode what they fetch, so a URL is fetched
    /// with their cheapest decode (the first frame as a one-pixel thumbnail).
    static func data(_ argument: String) async throws -> Data {
        let downloader = HTTPImageDownloader()
        let loaders = ImageLoaders.standard(downloader: downloader)
        do {
            let url = try InputURL.url(for: argument, loaders: loaders)
            let data = url.isFileURL ? try read(url) : try await fetch(url, with: loaders)
            try await downloader.shutdown()
            return data
        } catch let error as WebImageError {
            try? await downloader.shutdown()
            throw CommandFailure("cannot load \(argument): \(error)")
        } catch {
            try? await downloader.shutdown()
            throw error
        }
    }

    private static func read(_ file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw CommandFailure("cannot read \(file.path): \(SystemErrorText.describe(error))")
        }
    }

    private static func fetch(_ url: URL, with loaders: ImageLoaders) async throws -> Data {
        let cheapest = ImageDecodeOptions(thumbnailPixelSize: PixelSize(1), firstFrameOnly: true)
        return try await loaders.requestImage(for: url, options: ImageLoaderOptions(decodeOptions: cheapest), events: nil).data
    }
}
