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
/// BlurHash, ThumbHash and the perceptual hash checked against the reference encoders from
/// PyPI, palettes and dominant colours on an image of known colours, caching with an `ETag`,
/// refusals.
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

    private func withServer(key: String? = nil, configure: (inout ImageServer.Configuration) -> Void = { _ in },
                            _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withRouterTestServer(in: folder, key: key, configure: configure, body)
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
        let thumbnail = try ImageCoders.shared.analysisThumbnail(of: try Data(contentsOf: folder.appending("images/photo.jpg")))
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

    /// ThumbHash equals evanw's Rust encoder's (fast-thumbhash) on the thumbnail the server
    /// analyses; the perceptual hash is within 4 bits of imagehash's pHash of Pillow's full-size
    /// decode (the server hashes its 256-pixel shrink-on-load decode).
    func testThumbHashAndPerceptualHashAreTheReferencesOnes() async throws {
        let python = try XCTUnwrap(Python.interpreter(importing: "fast_thumbhash, imagehash"),
                                   "the venv has fast-thumbhash and imagehash (scripts/test installs them)")
        let photo = folder.appending("images/photo.jpg")
        let thumbnail = try ImageCoders.shared.analysisThumbnail(of: try Data(contentsOf: photo))
        let raw = folder.appending("thumbnail.rgba")
        try Data(thumbnail.bytes).write(to: raw)
        let reference = try ChildProcess.run(python, ["-c", """
            import sys, fast_thumbhash, imagehash
            from PIL import Image
            pixels = open(sys.argv[1], 'rb').read()
            print(bytes(fast_thumbhash.rgba_to_thumb_hash(int(sys.argv[2]), int(sys.argv[3]), pixels)).hex().upper())
            print(imagehash.phash(Image.open(sys.argv[4])))
            """, raw.path, String(thumbnail.width), String(thumbnail.height), photo.path], timeout: 60).output.split(separator: "\n")
        XCTAssertEqual(reference.count, 2)
        try await withServer { client in
            let info = try Self.json(try await client.execute(uri: "/info/insecure/th:1/ph:1/plain/local:///photo.jpg", method: .get))
            XCTAssertEqual(info["thumb_hash"] as? String, String(reference[0]))
            let ours = try XCTUnwrap(UInt64(try XCTUnwrap(info["perceptual_hash"] as? String), radix: 16))
            let theirs = try XCTUnwrap(UInt64(String(reference[1]), radix: 16))
            XCTAssertLessThanOrEqual((ours ^ theirs).nonzeroBitCount, 4, "\(String(ours, radix: 16)) vs \(reference[1])")
        }
    }

    /// An image of four known colours: the palette gives back those four, and the dominant
    /// colours put each where its lightness and saturation belong (the two swatches it has no
    /// colour for absent, or built from the others with `build_missed`).
    func testPaletteAndDominantColoursOfKnownColours() async throws {
        let bands: [(colour: RGBA, rows: Int)] = [(RGBA(r: 220, g: 30, b: 30), 40), (RGBA(r: 20, g: 30, b: 90), 30),
                                          (RGBA(r: 250, g: 190, b: 200), 20), (RGBA(r: 128, g: 128, b: 120), 10)]
        var pixels = PixelBuffer(width: 50, height: bands.reduce(0) { $0 + $1.rows })
        var y = 0
        for (colour, rows) in bands {
            for _ in 0..<rows {
                for x in 0..<pixels.width { pixels[x, y] = colour }
                y += 1
            }
        }
        try ImageCoders.shared.encode(Image(pixels: pixels), as: .png).write(to: folder.appending("images/bands.png"))
        @Sendable func near(_ swatch: Any?, _ colour: RGBA, _ name: String) {
            guard let swatch = swatch as? [String: Int], let r = swatch["R"], let g = swatch["G"], let b = swatch["B"] else {
                return XCTFail("\(name): \(String(describing: swatch))")
            }
            XCTAssertLessThanOrEqual(max(abs(r - Int(colour.r)), abs(g - Int(colour.g)), abs(b - Int(colour.b))), 8, "\(name): \(swatch)")
        }
        try await withServer { client in
            let info = try Self.json(try await client.execute(uri: "/info/insecure/p:4/dc:1/plain/local:///bands.png", method: .get))
            let palette = try XCTUnwrap(info["palette"] as? [[String: Int]])
            XCTAssertEqual(palette.count, 4)
            for (colour, _) in bands {
                XCTAssertTrue(palette.contains { max(abs($0["R"]! - Int(colour.r)), abs($0["G"]! - Int(colour.g)), abs($0["B"]! - Int(colour.b))) <= 8 },
                              "\(colour) in \(palette)")
            }
            let dominant = try XCTUnwrap(info["dominant_colors"] as? [String: Any])
            near(dominant["vibrant"], bands[0].colour, "vibrant")
            near(dominant["dark_vibrant"], bands[1].colour, "dark_vibrant")
            near(dominant["light_vibrant"], bands[2].colour, "light_vibrant")
            near(dominant["muted"], bands[3].colour, "muted")
            XCTAssertNil(dominant["light_muted"])
            XCTAssertNil(dominant["dark_muted"])
            let built = try Self.json(try await client.execute(uri: "/info/insecure/dc:1:1/plain/local:///bands.png", method: .get))
            let all = try XCTUnwrap(built["dominant_colors"] as? [String: [String: Int]])
            XCTAssertEqual(Set(all.keys), ["vibrant", "light_vibrant", "dark_vibrant", "muted", "light_muted", "dark_muted"])
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
            for (uri, named) in [("bh:10:3", "blurhash"), ("p:1", "palette"), ("p:257", "palette"), ("do:1", "detect_objects"),
                                 ("hs:md5:xyz", "hashsum"), ("nope:1", "nope"), ("vts:1", "video_thumbnail_second")] {
                let answer = try await client.execute(uri: "/info/insecure/\(uri)/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .badRequest, uri)
                XCTAssertTrue(String(buffer: answer.body).contains(named), "\(uri): \(String(buffer: answer.body))")
            }
            let off = try await client.execute(uri: "/info/insecure/dc:0/th:0/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(off.status, .ok)
        }
    }

    /// imgproxy's info settings from the environment: `IMGPROXY_INFO_PRESETS` (a `default`
    /// applied to every URL, others by `pr:`), `IMGPROXY_ALLOWED_INFO_OPTIONS`,
    /// `IMGPROXY_INFO_ONLY_PRESETS`, which follows `IMGPROXY_ONLY_PRESETS` unless set; an
    /// info preset with a processing option is refused at start. `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`
    /// binds processing URLs alone.
    func testInfoPresetsOnlyPresetsAndAllowedOptions() async throws {
        let environment = ["IMGPROXY_INFO_PRESETS": "default=xmp:0/exif:0,digests=chs:md5", "IMGPROXY_ALLOWED_INFO_OPTIONS": "pr,bh",
                           "IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "w"]
        let configured = try ImageServer.Configuration(environment: environment)
        try await withServer(configure: { $0.urls = configured.urls }) { client in
            let preset = try Self.json(try await client.execute(uri: "/info/insecure/pr:digests/bh:3:3/plain/local:///cmyk.jpg", method: .get))
            XCTAssertNil(preset["exif"], "the default preset turns EXIF off")
            XCTAssertNotNil(preset["photoshop"], "the IPTC block is read")
            XCTAssertEqual((preset["hashsums"] as? [String: String])?["md5"]?.count, 32)
            XCTAssertEqual((preset["blurhash"] as? String)?.count, 6 + 2 * 8)
            let refused = try await client.execute(uri: "/info/insecure/avg:1/plain/local:///cmyk.jpg", method: .get)
            XCTAssertEqual(refused.status, .badRequest, String(buffer: refused.body))
            let width = try await client.execute(uri: "/insecure/w:50/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(width.status, .ok)
            let quality = try await client.execute(uri: "/insecure/q:50/plain/local:///photo.jpg", method: .get)
            XCTAssertEqual(quality.status, .badRequest, String(buffer: quality.body))
        }
        for (variables, onlyPresets) in [(["IMGPROXY_INFO_ONLY_PRESETS": "true"], true), (["IMGPROXY_ONLY_PRESETS": "true"], true),
                                         (["IMGPROXY_ONLY_PRESETS": "true", "IMGPROXY_INFO_ONLY_PRESETS": "false"], false)] {
            let urls = try ImageServer.Configuration(environment: variables.merging(["IMGPROXY_INFO_PRESETS": "digests=chs:md5"]) { a, _ in a }).urls
            try await withServer(configure: { $0.urls = urls }) { client in
                let answer = try await client.execute(uri: "/info/insecure/digests/plain/local:///cmyk.jpg", method: .get)
                XCTAssertEqual(answer.status == .ok, onlyPresets, "\(variables): \(answer.status)")
                if onlyPresets { XCTAssertNotNil(try Self.json(answer)["hashsums"]) }
            }
        }
        do {
            let server = try await ImageServer(configuration: ImageServer.Configuration(environment: ["IMGPROXY_INFO_PRESETS": "bad=rs:fit:10:10"]))
            try await server.shutdown()
            XCTFail("an info preset with a processing option starts a server")
        } catch {
            XCTAssertTrue("\(error)".contains("rs"), "\(error)")
        }
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_ALLOWED_INFO_OPTIONS": "bh,rs"])) {
            XCTAssertEqual("\($0)", "IMGPROXY_ALLOWED_INFO_OPTIONS names \"rs\", which is no imgproxy info option")
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
