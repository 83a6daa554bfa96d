import Foundation
import WebImage
import WebImageCodecs

/// `memory.thumbnails`: the 100 names for a 12 MP JPEG in `large/` of the benchmark server,
/// loaded 6 at a time through an `ImageManager` with memory and disk caches as 256 px
/// thumbnails, once, in a fresh process; the measure is the process's peak resident memory.
enum MemoryCase {
    static let name = "memory.thumbnails"

    /// Loads the thumbnails and returns the peak resident memory of the process, in MiB.
    static func peakResidentMiB() throws -> Double {
        let urls = try BenchServer.urls(in: "large")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let downloader = HTTPImageDownloader(
            configuration: HTTPImageDownloader.Configuration(maxConcurrentDownloads: GalleryCase.concurrency))
        let manager = ImageManager(
            imageCache: ImageCache(disk: try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))),
            imageLoader: downloader, coders: ImageCoders(WebImageCodecs.defaultCoders))
        let context = GalleryCase.thumbnailContext
        let loads = Result {
            try Blocking.await {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for url in urls {
                        group.addTask { _ = try await manager.image(for: url, options: .waitStoreCache, context: context) }
                    }
                    try await group.waitForAll()
                }
            }
        }
        try Blocking.await { try await downloader.shutdown() }
        try loads.get()
        return try PeakMemory.mebibytes()
    }
}
