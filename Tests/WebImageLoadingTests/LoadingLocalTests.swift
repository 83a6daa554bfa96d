import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// The `file:` and `data:` loaders and the loader registry.
final class LoadingLocalTests: LoadingTestCase {
    func testFileURL() async throws {
        let url = Fixtures.bench("testjfif_256.png")
        let loader = FileImageLoader()
        XCTAssertTrue(loader.canRequest(url))
        XCTAssertFalse(loader.canRequest(URL(string: "http://example.com/a.png")!))
        let events = Recorder<ImageLoadingEvent>()
        let result = try await loader.requestImage(for: url, options: options()) { events.append($0) }
        XCTAssertEqual(result.image.pixelWidth, 256)
        XCTAssertEqual(result.image.pixelHeight, 192)
        XCTAssertEqual(result.data, try Fixtures.data(url))
        XCTAssertNil(result.response.statusCode)
        XCTAssertEqual(result.response.expectedContentLength, result.data.count)
        guard case .progress(let progress)? = events.all.last else { return XCTFail("no progress event") }
        XCTAssertEqual(progress.receivedBytes, result.data.count)
    }

    func testMissingFileIsATransientError() async throws {
        let url = URL(fileURLWithPath: "/nonexistent/webimage/photo.jpg")
        let error = await loadError { try await FileImageLoader().requestImage(for: url, options: options(), events: nil) }
        guard case .network(let failure) = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        XCTAssertEqual(failure.reason, .unreadableFile(path: url.path, why: "no such file or directory"))
        XCTAssertEqual(error?.description, "cannot read \(url.path): no such file or directory")
        XCTAssertFalse(FileImageLoader().shouldBlockFailedURL(url, error: error!))
    }

    func testFileAndDataLoadsAreReportedAsSuch() async throws {
        let manager = try makeManager(ImageLoaders.standard(downloader: makeDownloader()), folder: try TemporaryFolder(self).url)
        let file = try await manager.image(for: Fixtures.bench("testjfif_256.png"))
        XCTAssertEqual(file.source, .file)
        XCTAssertEqual(file.cacheType, ImageCacheType.none)
        let again = try await manager.image(for: Fixtures.bench("testjfif_256.png"))
        XCTAssertEqual(again.source, .memory)
        let png = try bench("testjfif_256.png").base64EncodedString()
        let data = try await manager.image(for: URL(string: "data:image/png;base64,\(png)")!)
        XCTAssertEqual(data.source, .data)
        XCTAssertEqual(server.requests.count, 0)
    }

    func testSourcePathsAreRemovedFromCauses() {
        let failure = NetworkFailure(.untrustedCertificate(host: "example.com"), cause: """
            handshakeFailed(sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED \
            at /work/.build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/ssl/handshake.cc:393]))
            """)
        XCTAssertEqual(failure.cause, "handshakeFailed(sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED]))")
        XCTAssertEqual(failure.description, "the certificate of example.com is not trusted (self-signed, expired, or for another name)")
    }

    func testBase64DataURL() async throws {
        let png = try bench("testjfif_256.png")
        let url = URL(string: "data:image/png;base64,\(png.base64EncodedString())")!
        let loader = DataURLImageLoader()
        XCTAssertTrue(loader.canRequest(url))
        let result = try await loader.requestImage(for: url, options: options(thumbnail: 64), events: nil)
        XCTAssertEqual(result.image.pixelWidth, 64)
        XCTAssertEqual(result.image.pixelHeight, 48)
        XCTAssertEqual(result.data, png)
        XCTAssertEqual(result.response.mimeType, "image/png")
    }

    func testPercentEncodedDataURL() async throws {
        let gif = try Fixtures.data(Fixtures.image("gif/sd_TestLoopCount.gif"))
        let encoded = gif.map { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        let url = URL(string: "data:image/gif,\(encoded)")!
        let result = try await DataURLImageLoader().requestImage(for: url, options: options(), events: nil)
        XCTAssertEqual(result.data, gif)
        XCTAssertEqual(result.image.format, .gif)
    }

    func testMalformedDataURLs() async throws {
        for text in ["data:image/png;base64", "data:image/png;base64,%%%", "data:image/png;base64,****"] {
            let url = try XCTUnwrap(URL(string: text.replacingOccurrences(of: "%%%", with: "%25%")), text)
            let error = await loadError { try await DataURLImageLoader().requestImage(for: url, options: options(), events: nil) }
            guard case .invalidURL = error else { return XCTFail("\(text): expected invalidURL, got \(String(describing: error))") }
        }
    }

    func testTextDataURLIsBadImageData() async throws {
        let url = URL(string: "data:text/plain,hello%20world")!
        let error = await loadError { try await DataURLImageLoader().requestImage(for: url, options: options(), events: nil) }
        XCTAssertEqual(error, .badImageData(.unsupportedFormat(.undefined)))
    }

    func testRegistryRoutesByScheme() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader()
        let loaders = ImageLoaders.standard(downloader: downloader)
        XCTAssertTrue(loaders.loader(for: server.url("/photo.jpg")) is HTTPImageDownloader)
        XCTAssertTrue(loaders.loader(for: Fixtures.bench("testjfif_256.png")) is FileImageLoader)
        XCTAssertTrue(loaders.loader(for: URL(string: "data:,x")!) is DataURLImageLoader)
        XCTAssertFalse(loaders.canRequest(URL(string: "gopher://example.com/x")!))
        XCTAssertEqual(loaders.whyUnhandled(URL(string: "gopher://example.com/x")!), "no loader handles gopher: URLs")
        XCTAssertEqual(loaders.whyUnhandled(URL(string: "http://")!), "http:// has no host")
        XCTAssertNil(loaders.whyUnhandled(server.url("/photo.jpg")))

        let http = try await loaders.requestImage(for: server.url("/photo.jpg"), options: options(), events: nil)
        XCTAssertEqual(http.response.statusCode, 200)
        let error = await loadError {
            try await loaders.requestImage(for: URL(string: "gopher://example.com/x")!, options: options(), events: nil)
        }
        guard case .invalidURL = error else { return XCTFail("expected invalidURL, got \(String(describing: error))") }
        XCTAssertTrue(loaders.shouldBlockFailedURL(server.url("/x"), error: WebImageError.badStatusCode(404)))
        XCTAssertFalse(loaders.shouldBlockFailedURL(server.url("/x"), error: WebImageError.timedOut(seconds: 15)))
    }

    func testLastAddedLoaderWins() {
        let loaders = ImageLoaders([FileImageLoader()])
        loaders.add(DataURLImageLoader())
        XCTAssertTrue(loaders.all.first is DataURLImageLoader)
        loaders.remove(DataURLImageLoader.self)
        XCTAssertEqual(loaders.all.count, 1)
    }
}
