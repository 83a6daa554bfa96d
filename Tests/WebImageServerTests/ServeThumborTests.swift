import Foundation
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's URL form through a real `webimage serve` on loopback, fetching from the loopback origin.
final class ServeThumborTests: ServeTestCase {
    private static let thumborKey = "my-security-key"

    /// The image a thumbor path on `base` answers, after checking it is a 200 of `format`.
    private func thumborImage(_ base: String, _ path: String, format: ImageFormat,
                              file: StaticString = #filePath, line: UInt = #line) async throws -> Image {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/\(format.rawValue)", path, file: file, line: line)
        return try ImageCoders.shared.decode(response.body)
    }

    func testThumborURLsResizeCropFlipAndConvert() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let fitted = try await thumborImage(base, "/unsafe/fit-in/200x200/\(source)", format: .jpeg)
        XCTAssertEqual([fitted.pixelWidth, fitted.pixelHeight], [200, 150])
        let filled = try await thumborImage(base, "/unsafe/100x100/left/\(source)", format: .jpeg)
        XCTAssertEqual([filled.pixelWidth, filled.pixelHeight], [100, 100])
        let cropped = try await thumborImage(base, "/unsafe/10x20:410x320/fit-in/200x0/filters:format(png)/\(source)", format: .png)
        XCTAssertEqual([cropped.pixelWidth, cropped.pixelHeight], [200, 150])
        let schemeless = source.replacingOccurrences(of: "http://", with: "")
        let webp = try await thumborImage(base, "/unsafe/fit-in/64x64/filters:format(webp):quality(40)/\(schemeless)", format: .webp)
        XCTAssertEqual([webp.pixelWidth, webp.pixelHeight], [64, 48])

        let plain = try await thumborImage(base, "/unsafe/fit-in/64x48/filters:format(png)/\(source)", format: .png).pixels
        let flipped = try await thumborImage(base, "/unsafe/fit-in/-64x48/filters:format(png)/\(source)", format: .png).pixels
        let turned = try await thumborImage(base, "/unsafe/fit-in/64x48/filters:rotate(90):format(png)/\(source)", format: .png).pixels
        XCTAssertEqual([turned.width, turned.height], [48, 64])
        for (x, y) in [(0, 0), (5, 40), (63, 47), (31, 12)] {
            XCTAssertEqual(flipped[x, y], plain[63 - x, y], "(\(x), \(y))")
            XCTAssertEqual(turned[y, 63 - x], plain[x, y], "(\(x), \(y)) turned counter-clockwise")
        }
        let grey = try await thumborImage(base, "/unsafe/fit-in/64x48/filters:grayscale():format(png)/\(source)", format: .png).pixels
        XCTAssertTrue((0..<48).allSatisfy { y in (0..<64).allSatisfy { x in grey[x, y].r == grey[x, y].g && grey[x, y].g == grey[x, y].b } })
        XCTAssertNotEqual(grey[31, 24], plain[31, 24])

        let padded = try await thumborImage(base, "/unsafe/fit-in/300x300/filters:fill(red):format(png)/\(source)", format: .png).pixels
        XCTAssertEqual([padded.width, padded.height], [300, 300])
        XCTAssertEqual(padded[0, 0], RGBA(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(padded[299, 299], RGBA(r: 255, g: 0, b: 0, a: 255))
        XCTAssertNotEqual(padded[150, 150], RGBA(r: 255, g: 0, b: 0, a: 255))
        let blurred = try await thumborImage(base, "/unsafe/fit-in/64x48/filters:blur(4):format(png)/\(source)", format: .png).pixels
        XCTAssertNotEqual(blurred.bytes, plain.bytes)
        // One fetch served every variant: the source bytes are cached.
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1)

        let unsupported = try await get(base + "/unsafe/fit-in/64x48/filters:sepia(80)/\(source)")
        XCTAssertEqual(unsupported.status, 400)
        XCTAssertEqual(String(decoding: unsupported.body, as: UTF8.self), "unsupported filter \"sepia\"\n")
        let debug = try await get(base + "/unsafe/debug/fit-in/64x48/\(source)")
        XCTAssertEqual(debug.status, 400)
    }

    func testThumborSignaturesAreCheckedWithTheKey() async throws {
        let base = try await serve(["--allow-loopback-sources", "--thumbor-key", Self.thumborKey])
        let source = origin.url("/photo.jpg").absoluteString
        let signer = ThumborURLSigner(key: Self.thumborKey)
        let path = "fit-in/50x50/\(source)"
        let signed = try await thumborImage(base, signer.sign(path), format: .jpeg)
        XCTAssertEqual([signed.pixelWidth, signed.pixelHeight], [50, 38])
        // A thumbor URL's bad signature is 400, as thumbor answers it; the rest are imgproxy's 403.
        let refused: [(String, String, Int)] = [
            ("/unsafe/\(path)", "forbidden: unsigned URLs are refused: this server checks signatures\n", 403),
            ("/\(signer.signature(for: "fit-in/51x50/\(source)"))/\(path)", "malformed URL: invalid signature\n", 400),
            (ThumborURLSigner(key: "another key").sign(path), "malformed URL: invalid signature\n", 400),
            ("/insecure/w:50/plain/\(source)", "forbidden: imgproxy URLs are refused: this server has no key for them\n", 403),
        ]
        for (refusedPath, message, status) in refused {
            let response = try await get(base + refusedPath)
            XCTAssertEqual(response.status, status, refusedPath)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), message, refusedPath)
        }
        let unsupported = try await get(base + signer.sign("fit-in/50x50/filters:frame(a.png)/\(source)"))
        XCTAssertEqual(unsupported.status, 400)
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1)
    }

    func testThumborKeyFromTheEnvironmentAndTheURLFormatOption() async throws {
        let source = origin.url("/photo.jpg").absoluteString
        let keyed = try start(["serve", "--bind", "127.0.0.1:0", "--cache-dir", folder.appending("env").path,
                               "--allow-loopback-sources"], environment: ["THUMBOR_SECURITY_KEY": Self.thumborKey])
        let signed = try await get(keyed + ThumborURLSigner(key: Self.thumborKey).sign("fit-in/20x20/\(source)"))
        XCTAssertEqual(signed.status, 200)
        let unsafe = try await get(keyed + "/unsafe/fit-in/20x20/\(source)")
        XCTAssertEqual(unsafe.status, 403)

        let imgproxyOnly = try await serve(["--allow-loopback-sources", "--url-format", "imgproxy"])
        let placeholder = try await get(imgproxyOnly + "/unsafe/rs:fit:20:20/plain/\(source)")
        XCTAssertEqual(placeholder.status, 200, "unsafe is only a placeholder signature to imgproxy")
        let notImgproxy = try await get(imgproxyOnly + "/unsafe/fit-in/20x20/\(source)")
        XCTAssertEqual(notImgproxy.status, 400)

        let thumborOnly = try await serve(["--allow-loopback-sources", "--url-format", "thumbor"])
        let notThumbor = try await get(thumborOnly + "/insecure/rs:fit:20:20/plain/\(source)")
        XCTAssertEqual(notThumbor.status, 400)
        let thumbor = try await get(thumborOnly + "/anything/fit-in/20x20/\(source)")
        XCTAssertEqual(thumbor.status, 200)
    }

    func testTheExampleIsAThumborURLWhenOnlyThumborsAreAnswered() async throws {
        let photos = folder.appending("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.bench("testjfif_1024.jpg"), to: photos.appendingPathComponent("cat.jpg"))
        _ = try serveProcess(["--local-root", photos.path, "--thumbor-key", Self.thumborKey])
        let server = try XCTUnwrap(processes.last)
        let prefix = "webimage serve: example: "
        XCTAssertTrue(server.wait(timeout: 10) { server.outputLines.contains { $0.hasPrefix(prefix) } }, server.output)
        let example = String(try XCTUnwrap(server.outputLines.first { $0.hasPrefix(prefix) }).dropFirst(prefix.count))
        XCTAssertTrue(example.hasSuffix(ThumborURLSigner(key: Self.thumborKey).sign("fit-in/300x300/filters:format(webp)/local:///cat.jpg")),
                      example)
        let image = try await thumborImage("", example, format: .webp)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [300, 225])
    }
}
