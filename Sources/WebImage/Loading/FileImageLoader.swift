import Foundation

/// Loads `file:` URLs: reads the file and decodes it.
///
/// A file that cannot be read fails with ``WebImageError/network(_:)`` (not permanent: the
/// file may appear later); bytes that are no image fail with ``WebImageError/badImageData(_:)``.
public struct FileImageLoader: ImageLoader {
    /// A file loader.
    public init() {}

    public func canRequest(_ url: URL) -> Bool {
        url.isFileURL
    }

    public func requestImage(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageLoadResult {
        let (data, response) = try read(url)
        return try LoadedDataDecoder.result(data: data, response: response, options: options, events: events)
    }

    public func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult {
        let (data, response) = try read(url)
        return try LoadedDataDecoder.bytes(data: data, response: response, options: options, events: events)
    }

    /// The file's bytes and a response saying their length.
    private func read(_ url: URL) throws(WebImageError) -> (Data, ImageLoadResponse) {
        guard url.isFileURL else { throw .invalidURL("\(url) is not a file URL") }
        if Task.isCancelled { throw .cancelled }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .network(NetworkFailure(.unreadableFile(path: url.path, why: SystemErrorText.describe(error)),
                                          cause: String(describing: error)))
        }
        return (data, ImageLoadResponse(url: url, headers: ["content-length": String(data.count)]))
    }
}
