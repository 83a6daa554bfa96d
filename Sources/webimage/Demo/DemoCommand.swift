import ArgumentParser
import Foundation
import LoopbackHTTPServer
import WebImage

/// `webimage demo`: the library at work with no network. A loopback server serves a gallery
/// drawn on the spot; the demo loads it as square, round-cornered thumbnails cold (network),
/// warm (memory) and through a fresh manager (disk), shows that concurrent loads of one URL
/// make one request, and writes the thumbnails and a contact sheet.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show WebImage at work on a gallery served over loopback (no network needed).",
        discussion: """
            Writes its cache, the thumbnails and contact-sheet.png into the output folder and \
            prints a table of sources and times per phase.
            Example:
              webimage demo -o /tmp/webimage-demo --count 48
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the cache, thumbnails and contact sheet.", valueName: "DIR"))
    var output = "webimage-demo"

    @Option(help: "How many pictures the gallery holds.")
    var count = 24

    @Option(help: ArgumentHelp("The thumbnails' long side in pixels.", valueName: "N"))
    var thumbnail = 160

    @Option(help: "How many callers load one URL at once in the coalescing step.")
    var callers = 100

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard thumbnail >= 16 else { throw ValidationError("--thumbnail must be at least 16") }
        guard callers >= 1 else { throw ValidationError("--callers must be at least 1") }
    }

    func run() async throws {
        WebImageCommand.prepareCoders()
        let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        let cacheFolder = folder.appendingPathComponent("cache", isDirectory: true)
        // The cold phase starts from an empty cache; a `cache` folder of somebody else's is refused.
        try DiskCache(directory: cacheFolder, configuration: .init(autoTrimInterval: 0)).removeAll()
        let progress = DemoProgress()

        progress.begin("gallery", total: 1)
        let started = ContinuousClock.now
        let gallery = try DemoGallery(count: count)
        let server = try await LoopbackHTTPServer.start()
        for item in gallery.items {
            server.route(item.path, .bytes(item.data, contentType: item.contentType, etag: "\"\(item.data.count)\""))
        }
        let urls = gallery.items.map { server.url($0.path) }
        let galleryBytes = gallery.items.reduce(0) { $0 + $1.data.count }
        progress.end("\(count) pictures drawn and encoded (\(ByteCount.human(galleryBytes))) in \(Self.format(ContinuousClock.now - started)), served at \(server.url("/"))")

        // The coalescing step's URL answers after 50 ms, so that all its callers overlap.
        let first = gallery.items[0]
        server.route("/shared.jpg", .bytes(first.data, contentType: first.contentType, delay: .milliseconds(50)))
        var sizes = Dictionary(uniqueKeysWithValues: gallery.items.map { ($0.path, $0.data.count) })
        sizes["/shared.jpg"] = first.data.count
        let downloader = HTTPImageDownloader()
        let phases: [DemoPhase]
        let written: DemoOutput.Written
        do {
            (phases, written) = try await run(urls, sizes: sizes, server: server, downloader: downloader,
                                              cacheFolder: cacheFolder, folder: folder, progress: progress)
            try await downloader.shutdown()
            try await server.stop()
        } catch {
            try? await downloader.shutdown()
            try? await server.stop()
            throw error
        }

        print()
        print(DemoTable(phases: phases).render())
        let disk = try DiskCache(directory: cacheFolder, configuration: .init(autoTrimInterval: 0))
        print("cache:         \(cacheFolder.path) (\(disk.count) files, \(ByteCount.human(disk.totalAllocatedSize)))")
        print("thumbnails:    \(written.thumbnails.path)")
        print("contact sheet: \(written.contactSheet.path)")
        let failures = phases.flatMap(\.failures)
        if !failures.isEmpty {
            for failure in failures { FileHandle.standardError.write(Data("webimage: \(failure)\n".utf8)) }
            throw ExitCode.failure
        }
    }

    /// The phases over `urls` (cold, warm, disk, coalescing), then the thumbnails and sheet.
    private func run(_ urls: [URL], sizes: [String: Int], server: LoopbackHTTPServer, downloader: HTTPImageDownloader,
                     cacheFolder: URL, folder: URL, progress: DemoProgress) async throws -> ([DemoPhase], DemoOutput.Written) {
        func manager() throws -> ImageManager {
            ImageManager(imageCache: ImageCache(disk: try DiskCache(directory: cacheFolder)), imageLoader: downloader)
        }
        /// Runs a phase and adds what the server answered meanwhile.
        func phase(_ name: String, _ urls: [URL], _ manager: ImageManager, _ options: WebImageOptions,
                   _ context: ImageContext, summary: (DemoPhase) -> String) async -> DemoPhase {
            progress.begin(name, total: urls.count)
            let before = server.requests.count
            var phase = await DemoPhase.run(name, urls: urls, manager: manager, options: options, context: context) { progress.tick() }
            let answered = server.requests.dropFirst(before)
            phase.serverRequests = answered.count
            phase.downloadedBytes = answered.reduce(0) { $0 + (sizes[$1.path] ?? 0) }
            progress.end(summary(phase))
            return phase
        }
        // Decode near the size (JPEG and WebP decode smaller in the codec), then cut square
        // thumbnails with round corners; animations too, frame by frame.
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(thumbnail * 2))
        context.transformer = .pipeline([
            ResizingTransformer.resize(size: PixelSize(thumbnail), mode: .aspectFill),
            RoundCornerTransformer.roundCorner(radius: Double(thumbnail) / 8),
        ])
        let first = try manager()
        var phases: [DemoPhase] = []
        let steps: [(String, ImageManager, WebImageOptions)] = [
            ("cold", first, [.waitStoreCache, .transformAnimatedImage]), ("warm", first, .transformAnimatedImage),
            ("disk", try manager(), .transformAnimatedImage),
        ]
        for (name, loader, options) in steps {
            phases.append(await phase(name, urls, loader, options, context) {
                "\($0.sourceSummary); \($0.serverRequests) requests to the server"
            })
        }

        let shared = server.url("/shared.jpg")
        var plain = ImageContext()
        plain.decodeOptions = context.decodeOptions
        phases.append(await phase("coalesce", Array(repeating: shared, count: callers), first, .fromLoaderOnly, plain) {
            "\(callers) callers at once, \($0.serverRequests) request to the server"
        })

        progress.begin("write", total: 1)
        let thumbnails = phases[0].images.map { (name: urls[$0.index].lastPathComponent, image: $0.image) }
        let written = try DemoOutput(folder: folder, coders: first.coders).write(thumbnails: thumbnails, cell: thumbnail)
        progress.end("\(thumbnails.count) thumbnails and a contact sheet")
        return (phases, written)
    }

    private static func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return ms < 1000 ? "\(Int(ms)) ms" : "\((ms / 100).rounded() / 10) s"
    }
}
