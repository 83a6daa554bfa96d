import Foundation
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// `webimage serve --thumbor-loader file`: thumbor URLs whose image names no scheme read it from
/// `--local-root`, as thumbor's file loader does. The URLs, signatures and expectations are those
/// of thumbor's own `tests/handlers/test_base_handler.py` (`ImagingOperationsTestCase`, key
/// `ACME-SEC`), whose image files are laid out here under the same names.
final class ServeThumborFileLoaderTests: ServeTestCase {
    private static let thumborKey = "ACME-SEC"

    /// A local root holding thumbor's test file names: `image.jpg`, the same without an
    /// extension, a space, an accented and a Cyrillic name, and a file that is not an image.
    private func thumborFiles() throws -> URL {
        let root = folder.appending("thumbor-files")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let photo = Fixtures.bench("testjfif_256.jpg")
        for name in ["image.jpg", "image", "image space.jpg", "alabama1_ap620é.jpg", "15967251_212831_19242645_АгатавЗоопарке.jpg"] {
            try FileManager.default.copyItem(at: photo, to: root.appendingPathComponent(name))
        }
        try Data("not an image".utf8).write(to: root.appendingPathComponent("image_invalid.jpg"))
        return root
    }

    /// The size of the image a path on `base` answers, after checking it is a 200 JPEG.
    private func jpegSize(_ base: String, _ path: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [Int] {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, "\(path): \(String(decoding: response.body, as: UTF8.self))", file: file, line: line)
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/jpeg", path, file: file, line: line)
        let image = try ImageCoders.shared.decode(response.body)
        return [image.pixelWidth, image.pixelHeight]
    }

    func testImagesWithoutASchemeAreReadFromTheLocalRoot() async throws {
        let root = try thumborFiles()
        let source = try ImageCoders.shared.decode(Data(contentsOf: root.appendingPathComponent("image.jpg")))
        let size = [source.pixelWidth, source.pixelHeight]
        let base = try await serve(["--thumbor-loader", "file", "--local-root", root.path])
        for path in ["/unsafe/smart/image.jpg", "/unsafe/smart/image", "/unsafe/image%20space.jpg",
                     "/unsafe/" + "15967251_212831_19242645_АгатавЗоопарке.jpg".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!] {
            let answered = try await jpegSize(base, path)
            XCTAssertEqual(answered, size, path)
        }
        let narrow = try await jpegSize(base, "/unsafe/0x0:1681x596/1x/image.jpg")
        XCTAssertEqual(narrow.first, 1)

        let refused: [(path: String, status: Int)] = [
            ("/unsafe/smart/imag", 404),
            // A file that is no image: 400 for a thumbor URL, as thumbor answers it (imgproxy's 422 otherwise).
            ("/unsafe/image_invalid.jpg", 400),
            ("/unsafe/filters:watermark(boom.jpg,0,0,0)/image.jpg", 400),
            ("/alabama1_ap620%C3%A9.jpg", 400),
            ("/unsafe/", 400),
            // Nothing outside the root is read, however the path climbs.
            ("/unsafe/..%2F..%2F..%2Fetc%2Fpasswd", 404),
            ("/unsafe/%2Fetc%2Fpasswd", 404),
        ]
        for (path, status) in refused {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, status, "\(path): \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    func testThumborsOwnSignedFileURLsAreAnswered() async throws {
        let root = try thumborFiles()
        let source = try ImageCoders.shared.decode(Data(contentsOf: root.appendingPathComponent("image.jpg")))
        let base = try await serve(["--thumbor-loader", "thumbor.loaders.file_loader", "--local-root", root.path,
                              "--thumbor-key", Self.thumborKey, "--url-format", "thumbor"])
        for path in ["/_wIUeSaeHw8dricKG2MGhqu5thk=/smart/image.jpg", "/lc6e3kkm_2Ww7NWho8HPOe-sqLU=/smart/alabama1_ap620%C3%A9.jpg",
                     "/5YRxzS2yxZxj9SZ50SoZ11eIdDI=/filters:fill(blue)/image.jpg"] {
            let answered = try await jpegSize(base, path)
            XCTAssertEqual(answered, [source.pixelWidth, source.pixelHeight], path)
        }
        // test_url_with_encoded_hash and test_getting_unsafe_image_fails: 400, as thumbor answers.
        let wrongSignature = try await get(base + "/_wIUeSaeHw8dricKG2MGhqu5thk=/smart/image")
        XCTAssertEqual(wrongSignature.status, 400)
        let encodedSignature = try await get(base + "/%D1%80=/alabama1_ap620%C3%A9.jpg")
        XCTAssertEqual(encodedSignature.status, 400)
        let unsafe = try await get(base + "/unsafe/smart/image.jpg")
        XCTAssertEqual(unsafe.status, 400)
    }

    /// test_base_handler_with_auto_png_to_jpg.py's signed rows, with the signatures libthumbor
    /// made for its files (key `ACME-SEC`): an opaque PNG is answered in JPEG, a transparent one
    /// stays PNG, neither varies; with `--auto-webp` and `Accept` listing WebP both are WebP and vary.
    func testAutoPNGToJPGOnThumborsSignedURLs() async throws {
        let root = folder.appending("png-files")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try ImgproxyTestImages.png(ImgproxyTestImages.geometry).write(to: root.appendingPathComponent("Giunchedi,_Filippo_January_2015_01.png"))
        try ImgproxyTestImages.png(ImgproxyTestImages.bands(bottom: .clear)).write(to: root.appendingPathComponent("watermark.png"))
        let opaque = "/l6-C2u-6xglE4rjGeOpXN9gzSZo=/Giunchedi%2C_Filippo_January_2015_01.png"
        let transparent = "/ssPYryBShQGs-ZXN5q7ws--khOA=/watermark.png"
        let settings = ["--thumbor-loader", "file", "--local-root", root.path, "--thumbor-key", Self.thumborKey,
                        "--url-format", "thumbor", "--auto-png-to-jpg"]
        let cases: [(server: String, path: String, accept: String?, type: String, varies: Bool)] = [
            (try await serve(settings), opaque, nil, "image/jpeg", false),
            (try await serve(settings), transparent, nil, "image/png", false),
            (try await serve(settings + ["--auto-webp"]), opaque, "image/webp,*/*;q=0.8", "image/webp", true),
            (try await serve(settings + ["--auto-webp"]), transparent, "image/webp,*/*;q=0.8", "image/webp", true),
        ]
        for (server, path, accept, type, varies) in cases {
            let response = try await get(server + path, headers: accept.map { [("Accept", $0)] } ?? [])
            XCTAssertEqual(response.status, 200, "\(path): \(String(decoding: response.body, as: UTF8.self))")
            XCTAssertEqual(response.headers.first(name: "Content-Type"), type, path)
            XCTAssertEqual(response.headers.first(name: "Vary")?.contains("Accept") ?? false, varies, path)
        }
    }

    /// thumbor's `file_loader_http_fallback`: the file first, then the part over HTTP.
    func testTheFallbackLoaderReadsTheFileFirstThenTheImageOverHTTP() async throws {
        let root = try thumborFiles()
        let base = try await serve(["--thumbor-loader", "file-or-http", "--local-root", root.path, "--allow-loopback-sources"])
        let local = try await jpegSize(base, "/unsafe/image.jpg")
        XCTAssertEqual(local, [256, 192], "a file of the root")
        let remote = origin.url("/photo.jpg")
        let fetched = try await jpegSize(base, "/unsafe/\(remote.host!):\(remote.port!)/photo.jpg")
        XCTAssertEqual(fetched, [1024, 768], "no such file: over HTTP")
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1)
        let nowhere = try await get(base + "/unsafe/\(remote.host!):\(remote.port!)/gone.jpg")
        XCTAssertEqual(nowhere.status, 404, "neither a file nor at the origin")
        let fileOnly = try await get(try await serve(["--thumbor-loader", "file", "--local-root", root.path, "--allow-loopback-sources"])
                                     + "/unsafe/\(remote.host!):\(remote.port!)/photo.jpg")
        XCTAssertEqual(fileOnly.status, 404, "thumbor's file_loader fetches nothing")
    }

    func testTheLoaderNamesThumborsModulesAndReadsImagesAsThumborsLoadersDo() throws {
        XCTAssertNil(ThumborLoader(setting: "thumbor.loaders.s3_loader"))
        XCTAssertEqual(ThumborLoader(setting: "thumbor.loaders.file_loader"), .file)
        XCTAssertEqual(ThumborLoader(setting: "thumbor.loaders.file_loader_http_fallback"), .fileOrHTTP)
        let cases: [(ThumborLoader, String, String)] = [
            (.file, "cats/tom%20cat.jpg", "local:///cats/tom%20cat.jpg"),
            // thumbor's file_loader fetches nothing: a URL is a file's path under the root.
            (.file, "https://example.com/a.jpg", "local:///https%3A//example.com/a.jpg"),
            (.fileOrHTTP, "cats/tom.jpg", "local:///cats/tom.jpg"),
            (.fileOrHTTP, "https://example.com/a.jpg", "https://example.com/a.jpg"),
            (.fileOrHTTP, "s3://bucket/a.jpg", "local:///s3%3A//bucket/a.jpg"),
            (.http, "example.com/a.jpg", "http://example.com/a.jpg"),
            (.http, "s3://bucket/a.jpg", "s3://bucket/a.jpg"),
        ]
        for (loader, image, source) in cases {
            XCTAssertEqual(try ThumborURLParser(loader: loader).parse("/unsafe/fit-in/10x10/" + image).source.absoluteString, source,
                           "\(loader) \(image)")
        }
    }
}
