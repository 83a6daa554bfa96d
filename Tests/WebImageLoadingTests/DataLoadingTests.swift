import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// Loading bytes without decoding them (``ImageManager/data(for:options:context:events:)``,
/// ``HTTPImageDownloader/data(for:options:events:)``): the same shared download as an image,
/// the same disk tier of originals, and no decode.
final class DataLoadingTests: LoadingTestCase {
    private var folder: TemporaryFolder!

    override func setUp() async throws {
        try await super.setUp()
        folder = try TemporaryFolder(self)
    }

    func testTheManagerDownloadsTheBytesOnceAndFindsThemOnDiskAfter() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
        let manager = try makeManager(ImageLoaders.standard(downloader: makeDownloader()), folder: folder.url)
        let url = server.url("/photo.jpg")
        let progress = Recorder<Int>()
        let first = try await manager.data(for: url, options: [.waitStoreCache]) { event in
            if case .progress(let received) = event { progress.append(received.receivedBytes) }
        }
        XCTAssertEqual(first.data, jpeg)
        XCTAssertEqual(first.source, .network)
        XCTAssertEqual(progress.all.last, jpeg.count)
        let second = try await manager.data(for: url)
        XCTAssertEqual(second.data, jpeg)
        XCTAssertEqual(second.source, .disk)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
        // Kept where a load of the image finds its original: decoded from disk, not downloaded.
        let image = try await manager.image(for: url)
        XCTAssertEqual(image.source, .disk)
        XCTAssertEqual(image.image.pixelWidth, 256)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
    }

    func testBytesThatAreNoImageAreReturnedUndecoded() async throws {
        let text = Data("no image at all".utf8)
        server.route("/note.txt", .bytes(text, contentType: "text/plain"))
        let downloader = makeDownloader()
        let loaded = try await downloader.data(for: server.url("/note.txt"), options: options())
        XCTAssertEqual(loaded.data, text)
        XCTAssertEqual(loaded.response.statusCode, 200)
        let decoding = await loadError { try await downloader.image(for: self.server.url("/note.txt"), options: self.options()) }
        guard case .badImageData = decoding else { return XCTFail("an image caller is refused the same bytes: \(String(describing: decoding))") }
    }

    func testACallerOfBytesAndACallerOfTheImageShareOneDownload() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let gate = routeHeldBack("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
        let downloader = makeDownloader()
        let url = server.url("/photo.jpg")
        let options = options()
        async let bytes = downloader.data(for: url, options: options)
        async let image = downloader.image(for: url, options: options)
        let asked = await server.wait(timeout: .seconds(10)) { $0.requestCount("/photo.jpg") == 1 }
        XCTAssertTrue(asked)
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let (data, decoded) = try await (bytes, image)
        XCTAssertEqual(data.data, jpeg)
        XCTAssertEqual(decoded.data, jpeg)
        XCTAssertEqual(decoded.image.pixelWidth, 256)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
    }

    func testFilesAndDataURLsGiveTheirBytes() async throws {
        let png = try bench("testimagelarge_256.png")
        let file = folder.url.appendingPathComponent("image.png")
        try png.write(to: file)
        let loaders = ImageLoaders.standard(downloader: makeDownloader())
        let fromFile = try await loaders.requestData(for: file, options: options(), events: nil)
        XCTAssertEqual(fromFile.data, png)
        let dataURL = try XCTUnwrap(URL(string: "data:image/png;base64," + png.base64EncodedString()))
        let fromURL = try await loaders.requestData(for: dataURL, options: options(), events: nil)
        XCTAssertEqual(fromURL.data, png)
        XCTAssertEqual(fromURL.response.headers["content-type"], "image/png")
    }

    func testAFailedURLIsRefusedUnlessRetried() async throws {
        server.route("/gone.jpg", LoopbackHTTPResponse(status: 404))
        let manager = try makeManager(ImageLoaders.standard(downloader: makeDownloader()), folder: folder.url)
        let url = server.url("/gone.jpg")
        for expected in [WebImageError.badStatusCode(404), .failedURL] {
            do {
                _ = try await manager.data(for: url)
                XCTFail("a 404 gives no bytes")
            } catch {
                XCTAssertEqual(error.description, expected.description)
            }
        }
        XCTAssertEqual(server.requestCount("/gone.jpg"), 1, "the failed URL is not asked again")
        _ = try? await manager.data(for: url, options: [.retryFailed])
        XCTAssertEqual(server.requestCount("/gone.jpg"), 2, "retryFailed asks it again")
    }
}
