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
        try? FileManager.default.removeItem(at: cacheFolder)
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

        let downloader = HTTPImageDownloader()
        func manager() -> ImageManager {
            ImageManager(imageCache: ImageCache(disk: DiskCache(directory: cacheFolder)), imageLoader: downloader)
        }
        // Decode near the size (JPEG and WebP decode smaller in the codec), then cut square
        // thumbnails with round corners; animations too, frame by frame.
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(thumbnail * 2))
        context.transformer = .pipeline([
            ResizingTransformer.resize(size: PixelSize(thumbnail), mode: .aspectFill),
            RoundCornerTransformer.roundCorner(radius: Double(thumbnail) / 8),
        ])
        let first = manager()
        var phases: [DemoPhase] = []
        let steps: [(String, ImageManager, WebImageOptions)] = [
            ("cold", first, [.waitStoreCache, .transformAnimatedImage]), ("warm", first, .transformAnimatedImage),
            ("disk", manager(), .transformAnimatedImage),
        ]
        for (name, loader, options) in steps {
            progress.begin(name, total: urls.count)
            let before = server.requests.count
            var phase = await DemoPhase.run(name, urls: urls, manager: loader, options: options, context: context) { progress.tick() }
            phase.serverRequests = server.requests.count - before
            progress.end("\(phase.sourceSummary); \(phase.serverRequests) requests to the server")
            phases.append(phase)
        }

        progress.begin("coalesce", total: callers)
        server.route("/shared.jpg", .bytes(gallery.items[0].data, contentType: gallery.items[0].contentType, delay: .milliseconds(50)))
        let shared = Array(repeating: server.url("/shared.jpg"), count: callers)
        var plain = ImageContext()
        plain.decodeOptions = context.decodeOptions
        var coalesced = await DemoPhase.run("coalesce", urls: shared, manager: first, options: .fromLoaderOnly,
                                            context: plain) { progress.tick() }
        coalesced.serverRequests = server.requestCount("/shared.jpg")
        progress.end("\(callers) callers at once, \(coalesced.serverRequests) request to the server")
        phases.append(coalesced)

        progress.begin("write", total: 1)
        let written = try DemoOutput(folder: folder, coders: first.coders).write(thumbnails: phases[0].images,
                                                                                   names: urls.map(\.lastPathComponent),
                                                                                   cell: thumbnail)
        progress.end("\(phases[0].images.count) thumbnails and a contact sheet")
        try await downloader.shutdown()
        try await server.stop()

        print()
        print(DemoTable(phases: phases).render())
        let disk = DiskCache(directory: cacheFolder, configuration: .init(autoTrimInterval: 0))
        print("cache:         \(cacheFolder.path) (\(disk.count) files, \(ByteCount.human(disk.totalSize)))")
        print("thumbnails:    \(written.thumbnails.path)")
        print("contact sheet: \(written.contactSheet.path)")
        let failures = phases.flatMap(\.failures)
        if !failures.isEmpty {
            for failure in failures { FileHandle.standardError.write(Data("webimage: \(failure)\n".utf8)) }
            throw ExitCode.failure
        }
    }

    private static func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return ms < 1000 ? "\(Int(ms)) ms" : "\((ms / 100).rounded() / 10) s"
    }
}
