import Foundation
import WebImage
import WebImageCodecs

/// `pipeline.gallery`: a cold gallery through `ImageManager`. Every image in `gallery/` of the
/// benchmark server (300 corpus JPEG, WebP and PNG files under distinct names) is downloaded 6 at a time,
/// decoded to a thumbnail of at most 256 × 256, and stored to a disk cache in a new folder: the
/// downloaded bytes under the original's key and the thumbnail, encoded by the codecs' encoders
/// in its source format, under its own, as a gallery app's cache holds them. Each run starts
/// with empty memory and disk caches. The reference is the Python pipeline
/// of `pillow_bench.py` over the same server.
enum GalleryCase {
    static let concurrency = 6
    static let thumbnailSide = 256

    /// A thumbnail larger than asked for: the case is broken.
    struct Broken: Error, CustomStringConvertible {
        let description: String
    }

    static var gallery: BenchmarkCase {
        BenchmarkCase(name: "pipeline.gallery", prepareOperation: {
            let urls = try BenchServer.urls(in: "gallery")
            let coders = ImageCoders(WebImageCodecs.defaultCoders)
            let downloader = HTTPImageDownloader(configuration: HTTPImageDownloader.Configuration(maxConcurrentDownloads: concurrency))
            let context = thumbnailContext
            var folder: URL?
            var manager: ImageManager?
            func removeFolder() {
                if let folder { try? FileManager.default.removeItem(at: folder) }
            }
            return TimedOperation(
                setUp: {
                    removeFolder()
                    let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-gallery-\(UUID().uuidString)")
                    let disk = try DiskCache(directory: fresh, configuration: .init(autoTrimInterval: 0))
                    folder = fresh
                    manager = ImageManager(imageCache: ImageCache(disk: disk, coders: coders), imageLoader: downloader, coders: coders)
                },
                run: {
                    let manager = manager!
                    try Blocking.await {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for url in urls {
                                group.addTask {
                                    let result = try await manager.image(for: url, options: .waitStoreCache, context: context)
                                    guard max(result.image.pixelWidth, result.image.pixelHeight) <= thumbnailSide else {
                                        throw Broken(description: "\(url.lastPathComponent) decoded to \(result.image.pixelWidth) × \(result.image.pixelHeight)")
                                    }
                                }
                            }
                            try await group.waitForAll()
                        }
                    }
                },
                tearDown: {
                    removeFolder()
                    _ = try? Blocking.await { try await downloader.shutdown() }
                })
        })
    }

    /// Decode to fit in `thumbnailSide` × `thumbnailSide`; the rest as the manager's defaults.
    static var thumbnailContext: ImageContext {
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: thumbnailSide, height: thumbnailSide))
        return context
    }
}
