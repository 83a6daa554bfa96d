import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageRedis
import WebImageTestSupport
import XCTest

/// A test case with its own `redis-server`, a loopback origin, and the downloaders, clients
/// and servers it makes, all stopped after each test.
class RedisTestCase: XCTestCase {
    /// The codecs' coders in a registry of their own.
    static let coders: ImageCoders = {
        let coders = ImageCoders()
        WebImageCodecs.registerDefaults(in: coders)
        return coders
    }()

    var redis: RedisServer!
    var origin: LoopbackHTTPServer!
    var folder: TemporaryFolder!
    private var downloaders: [HTTPImageDownloader] = []
    private var clients: [RedisClient] = []

    override func setUp() async throws {
        folder = try TemporaryFolder(self)
        let redisFolder = folder.appending("redis")
        try FileManager.default.createDirectory(at: redisFolder, withIntermediateDirectories: true)
        redis = try await RedisServer(folder: redisFolder)
        origin = try await LoopbackHTTPServer.start()
    }

    override func tearDown() async throws {
        for client in clients { await client.close() }
        for downloader in downloaders { try await downloader.shutdown() }
        clients = []
        downloaders = []
        try await origin.stop()
        redis.kill()
    }

    /// A client of the test's server (or of `configuration`), closed after the test.
    func makeClient(_ configuration: RedisConfiguration? = nil) -> RedisClient {
        let client = RedisClient(configuration: configuration ?? redis.configuration())
        clients.append(client)
        return client
    }

    /// A Redis tier over a client of `configuration` (the test's server by default).
    func makeRedisCache(_ configuration: RedisConfiguration? = nil, cache: RedisImageCache.Configuration = .init(),
                        logger: LogRecorder? = nil) -> RedisImageCache {
        RedisImageCache(client: makeClient(configuration), configuration: cache, coders: Self.coders,
                        logger: (logger ?? LogRecorder()).logger)
    }

    /// A manager whose cache is the chain memory → disk in its own folder `name` → `shared`,
    /// storing to every tier, downloading from the origin.
    func makeManager(_ name: String, shared: RedisImageCache) throws -> ImageManager {
        let disk = try DiskCache(directory: folder.appending(name), configuration: .init(autoTrimInterval: 0))
        let local = ImageCache(memory: MemoryCache(), disk: disk, coders: Self.coders)
        let downloader = HTTPImageDownloader(configuration: HTTPImageDownloader.Configuration())
        downloaders.append(downloader)
        return ImageManager(imageCache: ImageCachesManager(caches: [shared, local], storePolicy: .all),
                            imageLoader: downloader, coders: Self.coders)
    }

    /// Serves the fixture `fixtures/bench/name` at `/name` on the origin; returns its URL and bytes.
    func serve(_ name: String, at path: String? = nil) throws -> (url: URL, data: Data) {
        let data = try Fixtures.benchData(name)
        let path = path ?? "/\(name)"
        origin.route(path, .bytes(data))
        return (origin.url(path), data)
    }
}
