import AsyncHTTPClient
import Foundation
import WebImage
import WebImageCodecs
import WebImageObjectStorage
import WebImageTestSupport
import XCTest

/// The loader and the client against moto's S3-compatible server, which checks every
/// signature: what a signed request reads and writes, and what it refuses.
final class ObjectStorageClientTests: XCTestCase {
    private var moto: MotoServer!
    private var downloader: HTTPImageDownloader?
    private var clients: [ObjectStorageClient] = []

    override func setUp() async throws {
        moto = try await MotoServer()
    }

    override func tearDown() async throws {
        try await downloader?.shutdown()
        for client in clients { await client.shutdown() }
        moto.kill()
    }

    private func endpoint() throws -> ObjectStorageEndpoint {
        try ObjectStorageEndpoint(url: moto.endpoint, region: "us-east-1", usesPathStyle: true)
    }

    private func client(_ keys: MotoServer.Keys, secret: String? = nil) throws -> ObjectStorageClient {
        let client = ObjectStorageClient(endpoint: try endpoint(),
                                         credentials: ObjectStorageCredentials(accessKeyID: keys.id, secretAccessKey: secret ?? keys.secret))
        clients.append(client)
        return client
    }

    func testTheLoaderReadsAnObjectThroughTheDownloaderAndDecodesIt() async throws {
        try moto.makeBucket("images", objects: ["photos/a b/cat.jpg": Fixtures.bench("testjfif_256.jpg")])
        let downloader = HTTPImageDownloader(configuration: .init(maxRedirects: 0))
        self.downloader = downloader
        let loader = ObjectStorageImageLoader(downloader: downloader, endpoint: try endpoint(),
                                              credentials: ObjectStorageCredentials(accessKeyID: moto.reader.id,
                                                                                    secretAccessKey: moto.reader.secret))
        let coders = ImageCoders()
        WebImageCodecs.registerDefaults(in: coders)
        let url = try XCTUnwrap(URL(string: "s3://images/photos/a%20b/cat.jpg"))
        XCTAssertTrue(loader.canRequest(url))
        let result = try await loader.requestImage(for: url, options: ImageLoaderOptions(coders: coders), events: nil)
        XCTAssertEqual([result.image.pixels.width, result.image.pixels.height], [256, 192])
        XCTAssertEqual(result.data, try Fixtures.benchData("testjfif_256.jpg"))
        let bytes = try await loader.requestData(for: url, options: ImageLoaderOptions(coders: coders), events: nil)
        XCTAssertEqual(bytes.data, try Fixtures.benchData("testjfif_256.jpg"), "the same object, undecoded")

        do {
            _ = try await loader.requestImage(for: try XCTUnwrap(URL(string: "s3://images/missing.jpg")), options: ImageLoaderOptions(coders: coders),
                                              events: nil)
            XCTFail("a missing object loaded")
        } catch let error as WebImageError {
            XCTAssertEqual(error, .badStatusCode(404))
        }
    }

    func testAWrittenObjectReadsBackWithItsTypeETagAndMetadata() async throws {
        try moto.makeBucket("results")
        let client = try client(moto.reader)
        let location = try ObjectLocation(bucket: "results", key: "cache/one")
        let data = try Fixtures.benchData("testjfif_256.webp")
        try await client.put(data, at: location, contentType: "image/webp", metadata: ["created": "Sat, 28 Nov 2026 03:00:00 GMT"])
        let read = try await client.get(location)
        XCTAssertEqual(read?.data, data)
        XCTAssertEqual(read?.contentType, "image/webp")
        XCTAssertEqual(read?.etag, "\"\(MD5.hex(data))\"")
        XCTAssertEqual(read?.metadata["created"], "Sat, 28 Nov 2026 03:00:00 GMT")
        let exists = try await client.exists(location)
        XCTAssertTrue(exists)
        try await client.delete(location)
        let gone = try await client.get(location)
        XCTAssertNil(gone)
    }

    func testTheServerRefusesUnsignedWronglySignedAndUnauthorisedRequests() async throws {
        try moto.makeBucket("images", objects: ["cat.jpg": Fixtures.bench("testjfif_256.jpg")])
        let location = try ObjectLocation(bucket: "images", key: "cat.jpg")
        let signed = try await client(moto.reader).get(location)
        XCTAssertEqual(signed?.data, try Fixtures.benchData("testjfif_256.jpg"), "the signed request is answered")

        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let unsigned = try await http.execute(HTTPClientRequest(url: "\(moto.endpoint)/images/cat.jpg"), timeout: .seconds(10))
        let body = try await unsigned.body.collect(upTo: 1 << 20)
        try await http.shutdown()
        XCTAssertGreaterThanOrEqual(unsigned.status.code, 400, "an unsigned request is refused")
        XCTAssertNotEqual(Data(buffer: body), try Fixtures.benchData("testjfif_256.jpg"))

        for (name, client) in [("a wrong secret", try client(moto.reader, secret: "wrong" + moto.reader.secret)),
                               ("a key allowed nothing", try client(moto.outsider))] {
            do {
                _ = try await client.get(location)
                XCTFail("\(name): read")
            } catch {
                XCTAssertEqual(error, .unexpectedStatus(403), name)
                XCTAssertFalse(error.description.contains(moto.reader.secret) || error.description.contains(moto.outsider.secret))
            }
        }
    }
}
