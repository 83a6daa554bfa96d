import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's `/info` endpoint in process: header facts without a decode, metadata, digests,
/// BlurHash checked against the reference encoder from PyPI, caching with an `ETag`, refusals.
final class ServeInfoTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = folder.appending("images")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.bench("testjfif_1024.jpg"), to: root.appendingPathComponent("photo.jpg"))
        try FileManager.default.copyItem(at: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/images/jpeg/pil_pil_sample_cmyk.jpg"),
                                         to: root.appendingPathComponent("cmyk.jpg"))
        try FileManager.default.copyItem(at: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/images/jpeg/pil_hopper_orientation_6.jpg"),
                                         to: root.appendingPathComponent("turned.jpg"))
        try FileManager.default.copyItem(at: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/color/swapped_rgba.png"),
                                         to: root.appendingPathComponent("alpha.png"))
    }

    private func withServer(key: String? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withRouterTestServer(in: folder, key: key, body)
    }

    private static func json(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    func testTheDefaultsAreTheHeaderFactsAndTheMetadata() async throws {
        let file = try Data(contentsOf: folder.appending("images/cmyk.jpg"))
        try await withServer { client in
            let answer = try await client.execute(uri: "/info/insecure/plain/local:///cmyk.jpg", method: .get)
            XCTAssertEqual(answer.status, .ok)
            XCTAssertEqual(answer.headers[.contentType], "application/json")
            let info = try Self.json(answer)
            XCTAssertEqual(info["size"] as? Int, file.count)
            XCTAssertEqual(info["format"] as? String, "jpeg")
            XCTAssertEqual(info["mime_type"] as? String, "image/jpeg")
            XCTAssertEqual(info["width"] as? Int, 100)
            XCTAssertEqual(info["height"] as? Int, 100)
            XCTAssertEqual(info["orientation"] as? Int, 1)
            let exif = try XCTUnwrap(info["exif"] as? [String: String])
            XCTAssertEqual(exif["Software"], "Adobe Photoshop CS Macintosh")
            XCTAssertEqual(exif["Date and Time"], "2009:03:06 22:15:00")
            let xmp = try XCTUnwrap(info["xmp"] as? [String: [String: Any]])
            XCTAssertEqual(xmp["xap"]?["CreatorTool"] as? String, "Adobe Photoshop CS Macintosh")
            XCTAssertEqual(xmp["tiff"]?["XResolution"] as? String, "72/1")
            XCTAssertNil(info["colorspace"], "slow facts are left out unless asked")
            XCTAssertNil(info["blurhash"])

            let canonical = try Self.json(try await client.execute(
                uri: "/info/insecure/exif:1:1/xmp:0/iptc:0/s:0/cs:1/b:1/sf:1/pn:1/plain/local:///cmyk.jpg", method: .get))
            XCTAssertEqual((canonical["exif"] as? [String: String])?["DateTime"], "2009:03:06 22:15:00")
            XCTAssertNil(canonical["xmp"])
            XCTAssertNil(canonical["size"])
            XCTAssertEqual(canonical["colorspace"] as? String, "cmyk")
            XCTAssertEqual(canonical["bands"] as? Int, 4)
            XCTAssertEqual(canonical["sample_format"] as? String, "uchar")
            XCTAssertEqual(canonical["pages_number"] as? Int, 1)
        }
    }

    func testDimensionsAreUprightWithTheOrientationReported() async throws {
        let turned = try Data(contentsOf: folder.appending("images/turned.jpg"))
        try await withServer { client in
            let info = try Self.json(try await client.execute(uri: "/info/insecure/plain/local:///turned.jpg", method: .get))
            let decoded = try ImageCoders.shared.decode(turned)
            XCTAssertEqual(info["orientation"] as? Int, 6)
            XCTAssertEqual(info["width"] as? Int, decoded.pixelWidth)
            XCTAssertEqual(info["height"] as? Int, decoded.pixelHeight)
        }
    }

    func testHashsumsMatchPythonsAndAWrongHashsumIsRefused() async throws {
        let python = try XCTUnwrap(Python.interpreter(importing: "hashlib"))
        let path = folder.appending("images/photo.jpg").path
        let expected = try ChildProcess.run(python, ["-c", """
            import hashlib, sys; d = open(sys.argv[1], 'rb').read(); print(hashlib.md5(d).hexdigest(), hashlib.sha512(d).hexdigest())
            """, path], timeout: 60).output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try await withServer { client in
            let info = try Self.json(try await client.execute(uri: "/info/insecure/chs:md5:sha512/plain/local:///photo.jpg", method: .get))
            let sums = try XCTUnwrap(info["hashsums"] as? [String: String])
            XCTAssertEqual([sums["md5"], sums["sha512"]], expected.map(Optional.some))
            let matching = try await client.execute(uri: "/info/insecure/hs:md5:\(expected[0])/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(matching.status, .ok)
            let wrong = String(repeating: "0", count: 32)
            let refused = try await client.execute(uri: "/info/insecure/hs:md5:\(wrong)/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(refused.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: refused.body).contains("md5"))
        }
    }

    func testBlurHashIsTheReferenceEncodersOnTheSamePixels() async throws {
        let python = try XCTUnwrap(Python.interpreter(importing: "blurhash"), "the venv has blurhash-python (scripts/test installs it)")
        let data = try Data(contentsOf: folder.appending("images/photo.jpg"))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
        let thumbnail = try ImageCoders.shared.decode(data, options: options).pixels.analysisThumbnail()
        let png = folder.appending("thumbnail.png")
        try ImageCoders.shared.encode(Image(pixels: thumbnail), as: .png).write(to: png)
        let reference = try ChildProcess.run(python, ["-c", """
            import sys, blurhash
            from PIL import Image
            print(blurhash.encode(Image.open(sys.argv[1]).convert('RGB'), x_components=4, y_components=3))
            """, png.path], timeout: 60).output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try BlurHash.encode(thumbnail, xComponents: 4, yComponents: 3), reference)
        try await withServer { client in
            let info = try Self.json(try await client.execute(uri: "/info/insecure/bh:4:3/avg:1/plain/local:///photo.jpg", method: .get))
            XCTAssertEqual(info["blurhash"] as? String, reference)
            let average = try XCTUnwrap(info["average"] as? [String: Int])
            let mean = try XCTUnwrap(AverageColor.of(thumbnail))
            XCTAssertEqual([average["R"], average["G"], average["B"], average["A"]], [Int(mean.r), Int(mean.g), Int(mean.b), 255])
        }
    }

    func testAlphaCropAndTheETag() async throws {
        try await withServer { client in
            let alpha = try Self.json(try await client.execute(uri: "/info/insecure/a:1:1/cs:1/b:1/plain/local:///alpha.png", method: .get))
            XCTAssertEqual(alpha["alpha"] as? Bool, true)
            XCTAssertEqual(alpha["bands"] as? Int, 4)
            XCTAssertEqual(alpha["colorspace"] as? String, "srgb")
            let opaque = try Self.json(try await client.execute(uri: "/info/insecure/a:1/plain/local:///photo.jpg", method: .get))
            XCTAssertEqual(opaque["alpha"] as? Bool, false)

            let uri = "/info/insecure/c:0.5:0.25:nowe/plain/local:///photo.jpg"
            let cropped = try await client.execute(uri: uri, method: .get)
            let crop = try XCTUnwrap(try Self.json(cropped)["crop"] as? [String: Double])
            XCTAssertEqual(crop["left"], 0)
            XCTAssertEqual(crop["top"], 0)
            XCTAssertEqual(try XCTUnwrap(crop["width"]), 0.5, accuracy: 0.002)
            XCTAssertEqual(try XCTUnwrap(crop["height"]), 0.25, accuracy: 0.002)
            var conditional = HTTPFields()
            conditional[.ifNoneMatch] = try XCTUnwrap(cropped.headers[.eTag])
            let revalidated = try await client.execute(uri: uri, method: .get, headers: conditional)
            XCTAssertEqual(revalidated.status, .notModified)
        }
    }

    func testBadOptionsAndMissingFeaturesAreRefusedByName() async throws {
        try await withServer { client in
            for (uri, named) in [("bh:10:3", "blurhash"), ("dc:1", "dominant_colors"), ("do:1", "detect_objects"),
                                 ("hs:md5:xyz", "hashsum"), ("nope:1", "nope"), ("vts:1", "video_thumbnail_second")] {
                let answer = try await client.execute(uri: "/info/insecure/\(uri)/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .badRequest, uri)
                XCTAssertTrue(String(buffer: answer.body).contains(named), "\(uri): \(String(buffer: answer.body))")
            }
            let off = try await client.execute(uri: "/info/insecure/dc:0/th:0/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(off.status, .ok)
        }
    }

    func testInfoURLsAreSignedAsProcessingURLs() async throws {
        let key = "73656372657421"
        try await withServer(key: key) { client in
            let unsigned = try await client.execute(uri: "/info/insecure/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(unsigned.status, .forbidden)
            let signer = try URLSigner(hexKeys: [key], hexSalts: [key])
            let path = "/d:1/plain/local:///photo.jpg"
            let signed = try await client.execute(uri: "/info/\(signer.signature(for: path))\(path)", method: .get)
            XCTAssertEqual(signed.status, .ok)
            XCTAssertEqual(try Self.json(signed)["width"] as? Int, 1024)
        }
    }
}
