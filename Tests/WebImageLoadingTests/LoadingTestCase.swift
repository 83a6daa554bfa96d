import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// A test case with a loopback server and downloaders that are shut down after each test.
class LoadingTestCase: XCTestCase {
    /// The codecs' coders in a registry of their own (the shared one stays untouched).
    static let coders: ImageCoders = {
        let coders = ImageCoders()
        WebImageCodecs.registerDefaults(in: coders)
        return coders
    }()

    var server: LoopbackHTTPServer!
    private var downloaders: [HTTPImageDownloader] = []

    override func setUp() async throws {
        server = try await LoopbackHTTPServer.start()
    }

    override func tearDown() async throws {
        for downloader in downloaders { try await downloader.shutdown() }
        downloaders = []
        try await server.stop()
    }

    /// A downloader that ``tearDown()`` shuts down, connecting where `addressPolicy` says when given.
    func makeDownloader(addressPolicy: (any ConnectionAddressPolicy)? = nil,
                        _ configure: (inout HTTPImageDownloader.Configuration) -> Void = { _ in }) -> HTTPImageDownloader {
        var configuration = HTTPImageDownloader.Configuration()
        configure(&configuration)
        let downloader = HTTPImageDownloader(configuration: configuration, addressPolicy: addressPolicy)
        downloaders.append(downloader)
        return downloader
    }

    /// A manager over a new memory tier and a disk tier in `folder` (no background trim),
    /// decoding with ``coders``.
    func makeManager(_ loader: any ImageLoader, folder: URL, transformer: (any ImageTransformer)? = nil,
                     shouldDownload: (@Sendable (URL) -> Bool)? = nil) throws -> ImageManager {
        let disk = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        return ImageManager(imageCache: ImageCache(memory: MemoryCache(), disk: disk, coders: Self.coders),
                            imageLoader: loader, coders: Self.coders, transformer: transformer, shouldDownload: shouldDownload)
    }

    /// Options decoding with ``coders``.
    func options(priority: DownloadPriority = .normal, thumbnail: Int? = nil, progressive: Bool = false)
        -> ImageLoaderOptions
    {
        ImageLoaderOptions(priority: priority,
                           decodeOptions: ImageDecodeOptions(thumbnailPixelSize: thumbnail.map { PixelSize($0) }),
                           coders: Self.coders, progressive: progressive)
    }

    /// Routes `path` to `response`, held back until the returned gate opens.
    func routeHeldBack(_ path: String, _ response: LoopbackHTTPResponse) -> LoopbackHTTPGate {
        let gate = LoopbackHTTPGate()
        var response = response
        response.gate = gate
        server.route(path, response)
        return gate
    }

    /// The bytes of a file below `fixtures/bench`.
    func bench(_ name: String) throws -> Data {
        try Fixtures.data(Fixtures.bench(name))
    }

    /// The error `body` throws, failing the test when it throws none or another type.
    func loadError(_ body: () async throws -> ImageLoadResult, file: StaticString = #filePath, line: UInt = #line)
        async -> WebImageError?
    {
        do {
            let result = try await body()
            XCTFail("expected an error, got a \(result.image.pixelWidth)x\(result.image.pixelHeight) image", file: file, line: line)
        } catch let error as WebImageError {
            return error
        } catch {
            XCTFail("expected a WebImageError, got \(error)", file: file, line: line)
        }
        return nil
    }
}

extension Result {
    /// The error, when the result is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
