import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// Real fixtures through the whole pipeline (manager, decoders, transformer, encoders), read
/// as `local://` sources from a temporary folder; the outputs are decoded again and measured.
final class ImageProcessorTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var root: URL!
    private var processor: ImageProcessor!
    private let parser = ProcessingURLParser()

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        root = folder.appending("images")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, source) in [("photo.jpg", Fixtures.bench("testjfif_1024.jpg")),
                               ("small.jpg", Fixtures.bench("testjfif_256.jpg")),
                               ("alpha.png", Fixtures.image("png/pngsuite_basn6a08.png")),
                               ("loop.gif", Fixtures.image("gif/sd_TestLoopCount.gif"))] {
            try FileManager.default.copyItem(at: source, to: root.appendingPathComponent(name))
        }
        let cache = ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder.appending("sources")))
        processor = ImageProcessor(manager: ImageManager(imageCache: cache), configuration: configuration(),
                                   disk: try DiskCache(directory: folder.appending("results")))
    }

    /// The default configuration serving `local:///` from the test's root, changed by `change`.
    private func configuration(_ change: (inout ImageServer.Configuration) -> Void = { _ in }) -> ImageServer.Configuration {
        var configuration = ImageServer.Configuration()
        configuration.sources.localRoot = root.path
        change(&configuration)
        return configuration
    }

    /// A fresh processor, as after a restart, sharing the sources but keeping its results on
    /// the disk at `results`.
    private func restarted(over results: URL) throws -> ImageProcessor {
        ImageProcessor(manager: processor.manager, configuration: configuration(), disk: try DiskCache(directory: results))
    }

    private func process(_ path: String) async throws -> (ProcessedImage, Image) {
        let result = try await processor.process(try parser.parse(path))
        return (result, try ImageCoders.shared.decode(result.data))
    }

    /// What a power loss leaves of an unsynced write: a result file cut to half, or to nothing.
    /// A fresh instance over the same disk must make it again, never serve the rest.
    func testAResultCutShortOnDiskIsRemovedAndMadeAgain() async throws {
        let results = folder.appending("cut-results")
        func instance() throws -> ImageProcessor { try restarted(over: results) }
        let url = try parser.parse("/x/rs:fit:200:200/plain/local:///photo.jpg@png")
        let made = try await instance().process(url)
        let stored = try DiskCache(directory: results).cachePath(forKey: url.cacheKey)
        let whole = try await instance().process(url)
        XCTAssertEqual(whole.source, .disk, "a whole copy is a disk hit")
        for length in [made.data.count / 2, 0] {
            try made.data.prefix(length).write(to: stored)
            let answered = try await instance().process(url)
            XCTAssertEqual(answered.source, .made, "a copy cut to \(length) bytes is a miss")
            XCTAssertEqual(answered.data, made.data)
            XCTAssertEqual(answered.etag, made.etag)
            let again = try await instance().process(url)
            XCTAssertEqual(again.source, .disk, "the result made again is stored again")
        }
    }

    /// The tag is `"sha256-` and 32 hex digits. A disk copy an earlier version tagged with the
    /// MD5 of its bytes cannot be checked: it is made again and stored with the new tag.
    func testADiskCopyTaggedWithMD5IsMadeAgainWithTheSHA256Tag() async throws {
        let results = folder.appending("md5-results")
        func instance() throws -> ImageProcessor { try restarted(over: results) }
        let url = try parser.parse("/x/rs:fit:120:120/plain/local:///photo.jpg@png")
        let made = try await instance().process(url)
        XCTAssertNotNil(made.etag.wholeMatch(of: /"sha256-[0-9a-f]{32}"/), made.etag)
        let disk = try DiskCache(directory: results)
        let validators = try XCTUnwrap(disk.extendedData(forKey: url.cacheKey).map { String(decoding: $0, as: UTF8.self) })
        XCTAssertTrue(validators.contains(made.etag), validators)
        try disk.setExtendedData(Data(validators.replacingOccurrences(of: made.etag, with: "\"\(MD5.hex(made.data))\"").utf8),
                                 forKey: url.cacheKey)
        let remade = try await instance().process(url)
        XCTAssertEqual(remade.source, .made, "an MD5 tag is a miss")
        XCTAssertEqual(remade.etag, made.etag)
        let again = try await instance().process(url)
        XCTAssertEqual(again.source, .disk, "stored again with the new tag")
    }

    /// Two instances with caches of their own over one shared tier (an `ImageCache` here; a
    /// Redis tier in `webimage serve --redis`): what one made, the other answers as it is.
    func testAResultInTheSharedCacheIsAnsweredWithoutMakingItAndWrittenBack() async throws {
        let shared = ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder.appending("shared")))
        func instance(_ name: String) throws -> ImageProcessor {
            let sources = ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder.appending("\(name)-sources")))
            return ImageProcessor(manager: ImageManager(imageCache: sources), configuration: configuration(),
                                  disk: try DiskCache(directory: folder.appending("\(name)-results")), sharedCache: shared)
        }
        let url = try parser.parse("/x/rs:fit:100:100/plain/local:///photo.jpg@webp")
        let made = try await instance("a").process(url)
        let b = try instance("b")
        let answered = try await b.process(url)
        let again = try await b.process(url)
        // The write-back to b's disk happens after the answer, in the background.
        let bDisk = try DiskCache(directory: folder.appending("b-results"))
        let deadline = ContinuousClock.now + .seconds(30)
        while !bDisk.containsData(forKey: url.cacheKey), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let restarted = try await instance("b").process(url)

        XCTAssertEqual([made.source, answered.source, again.source, restarted.source], [.made, .shared, .memory, .disk])
        XCTAssertEqual(answered.data, made.data)
        XCTAssertEqual(answered.format, .webp)

        let other = try parser.parse("/x/rs:fit:50:50/plain/local:///photo.jpg@png")
        try await shared.store(nil, data: Data("not an image".utf8), forKey: other.cacheKey, to: .disk, serializer: nil)
        let remade = try await b.process(other)
        XCTAssertEqual(remade.source, .made, "bytes of no known format are a miss")
        XCTAssertEqual(ImageFormat(detecting: remade.data), .png)
        let stored = await shared.diskImageData(forKey: other.cacheKey)
        XCTAssertEqual(stored, remade.data, "the result made replaces them")
    }

    func testFitShrinksAJPEGAndKeepsItsFormat() async throws {
        let (result, image) = try await process("/insecure/rs:fit:300:300/plain/local:///photo.jpg")
        XCTAssertEqual(result.format, .jpeg)
        XCTAssertEqual(result.mediaType, "image/jpeg")
        XCTAssertEqual(ImageFormat(detecting: result.data), .jpeg)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [300, 225])
    }

    func testFillToWebPFromABase64Source() async throws {
        let encoded = Data("local:///small.jpg".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let (result, image) = try await process("/x/rs:fill:64:64/g:we/\(encoded).webp")
        XCTAssertEqual(result.format, .webp)
        XCTAssertEqual(ImageFormat(detecting: result.data), .webp)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [64, 64])
    }

    func testRotateCropAndPNGOutput() async throws {
        let (_, rotated) = try await process("/x/w:100/rot:90/plain/local:///small.jpg@png")
        // 256x192 turned a quarter is 192x256; 100 wide keeps the aspect ratio.
        XCTAssertEqual([rotated.pixelWidth, rotated.pixelHeight], [100, 133])
        XCTAssertEqual(rotated.format, .png)
        let (_, cropped) = try await process("/x/c:0.5:96:nowe/plain/local:///small.jpg@png")
        XCTAssertEqual([cropped.pixelWidth, cropped.pixelHeight], [128, 96])
    }

    func testExtendPadsWithTheBackgroundColour() async throws {
        let (_, image) = try await process("/x/rs:fit:300:300:0:1/bg:ff0000/plain/local:///small.jpg@png")
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [300, 300])
        XCTAssertEqual(image.pixels[0, 0], RGBA(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(image.pixels[299, 299], RGBA(r: 255, g: 0, b: 0, a: 255))
        XCTAssertFalse(image.pixels.hasTransparency)
    }

    func testTransparencyIsFlattenedOntoTheBackground() async throws {
        let (_, kept) = try await process("/x/w:16/plain/local:///alpha.png")
        XCTAssertTrue(kept.pixels.hasTransparency)
        let (_, flattened) = try await process("/x/w:16/bg:255:255:255/plain/local:///alpha.png")
        XCTAssertFalse(flattened.pixels.hasTransparency)
    }

    func testAnimationStaysAnimatedInAFormatThatCarriesIt() async throws {
        let (gif, animated) = try await process("/x/rs:fit:36:36/plain/local:///loop.gif")
        XCTAssertEqual(gif.format, .gif)
        XCTAssertEqual(animated.frames.count, 2)
        XCTAssertEqual([animated.pixelWidth, animated.pixelHeight], [36, 24])
        let (_, still) = try await process("/x/rs:fit:36:36/plain/local:///loop.gif@jpg")
        XCTAssertEqual(still.frames.count, 1)
    }

    func testQualityChangesTheBytes() async throws {
        let (low, _) = try await process("/x/w:256/q:10/plain/local:///photo.jpg")
        let (high, _) = try await process("/x/w:256/q:95/plain/local:///photo.jpg")
        XCTAssertLessThan(low.data.count, high.data.count)
    }

    func testResultsAreCachedUnderTheCanonicalKey() async throws {
        let (first, _) = try await process("/one/rs:fit:50:50/plain/local:///small.jpg@png")
        try FileManager.default.removeItem(at: root.appendingPathComponent("small.jpg"))
        // Same options spelled differently, another signature: served from the result cache.
        let (second, _) = try await process("/two/size:50:50/resizing_type:fit/format:png/plain/local:%2F%2F%2Fsmall.jpg")
        XCTAssertEqual(first.data, second.data)
        // Other options need the source, which is gone.
        do {
            _ = try await process("/two/rs:fit:51:50/plain/local:///small.jpg@png")
            XCTFail("processed a deleted source")
        } catch let error as ProcessingError {
            XCTAssertEqual(error, .sourceNotFound)
            XCTAssertEqual(error.status, 404)
        }
    }

    func testAnIPhoneStyleHEICBecomesAVIFRotatedOnce() async throws {
        // Stored 64x48 with irot 90° clockwise and EXIF orientation 6 (scripts/make-format-fixtures.py).
        try Fixtures.formatData("heic/irot_exif6.heic").write(to: root.appendingPathComponent("phone.heic"))
        let (result, image) = try await process("/x/w:24/plain/local:///phone.heic@avif")
        XCTAssertEqual(result.format, .avif)
        XCTAssertEqual(result.mediaType, "image/avif")
        XCTAssertEqual(ImageFormat(detecting: result.data), .avif)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [24, 32])
        assertClose(image.pixels[6, 8], RGBA(r: 30, g: 40, b: 220), tolerance: 16, "blue quadrant top left: turned once")
        let (fallback, _) = try await process("/x/w:24/plain/local:///phone.heic")
        XCTAssertEqual(fallback.format, .heic, "libheif's x265 encoder writes HEIC: the source's format is kept, as imgproxy keeps it")
        XCTAssertEqual(ImageFormat(detecting: fallback.data), .heic)
    }

    func testRefusalsAreTypedWithTheirStatus() async throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("folder"), withIntermediateDirectories: true)
        // A link inside the served folder to a file outside it, and one to a file inside it.
        let outside = folder.appending("outside.jpg")
        try FileManager.default.copyItem(at: root.appendingPathComponent("small.jpg"), to: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.jpg"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("folder/up"), withDestinationURL: folder.url)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inner.jpg").path, withDestinationPath: "small.jpg")
        let (inner, _) = try await process("/x/w:10/plain/local:///inner.jpg")
        XCTAssertEqual(inner.format, .jpeg, "a link to a file inside the folder is served")
        let cases: [(String, ProcessingError)] = [
            ("/x/plain/local:///link.jpg", .sourceRefused("the local path leaves the served folder")),
            ("/x/plain/local:///folder/up/outside.jpg", .sourceRefused("the local path leaves the served folder")),
            ("/x/plain/local:///missing.jpg", .sourceNotFound),
            ("/x/plain/local:///folder/", .sourceNotFound),
            ("/x/plain/local:///../images/../../etc/passwd", .sourceRefused("the local path leaves the served folder")),
            ("/x/exp:1000/plain/local:///small.jpg", .expired),
        ]
        for (path, expected) in cases {
            do {
                _ = try await processor.process(try parser.parse(path))
                XCTFail("\(path) was processed")
            } catch let error as ProcessingError {
                XCTAssertEqual(error, expected, path)
                XCTAssertFalse(error.description.contains(root.path), path)
            }
        }
        let noLocal = ImageProcessor(manager: processor.manager)
        do {
            _ = try await noLocal.process(try parser.parse("/x/plain/local:///small.jpg"))
            XCTFail("local source without a root")
        } catch let error as ProcessingError {
            XCTAssertEqual(error, .sourceRefused("local sources are not enabled"))
            XCTAssertEqual(error.status, 404)
        }
    }

    func testSourcesAndResultsOverThePixelLimitsAreRefused() async throws {
        let strict = ImageProcessor(manager: processor.manager, configuration: configuration {
            $0.limits.maxSrcResolution = 0.1
            $0.limits.maxResultResolution = 1
        })
        // The 1024x768 source is over the limit whatever it is asked as, even a fit that would
        // shrink it on load (the source's own size counts, as imgproxy counts it); the 256x192
        // one is under it, but its result enlarged to 2000 wide is over the result limit.
        for path in ["/x/rs:fill:100:100/plain/local:///photo.jpg", "/x/w:100/plain/local:///photo.jpg",
                     "/x/rs:fit:2000:2000:1/plain/local:///small.jpg"] {
            do {
                _ = try await strict.process(try parser.parse(path))
                XCTFail("\(path) was processed")
            } catch let error as ProcessingError {
                XCTAssertEqual(error.status, 422, "\(error)")
            }
        }
        // Under both limits.
        _ = try await strict.process(try parser.parse("/x/rs:fit:1000:1000:1/plain/local:///small.jpg"))
        _ = try await strict.process(try parser.parse("/x/w:100/plain/local:///small.jpg"))
    }

    func testOnlyAllowedSourcePrefixesAreLoaded() async throws {
        let limited = ImageProcessor(manager: processor.manager,
                                     configuration: configuration { $0.sources.allowedSources = ["local:///small", "https://cdn.example/"] })
        _ = try await limited.process(try parser.parse("/x/w:10/plain/local:///small.jpg"))
        do {
            _ = try await limited.process(try parser.parse("/x/w:10/plain/local:///photo.jpg"))
            XCTFail("a source outside the allowed prefixes was loaded")
        } catch let error as ProcessingError {
            XCTAssertEqual(error, .sourceRefused("the source is not among the allowed sources"))
            XCTAssertEqual(error.status, 404)
        }
    }

    /// imgproxy's allowed-source wildcards (its processing handler's test table): `*` matches any
    /// run of characters but `/`, so it stays inside the host.
    func testAllowedSourcesMatchWildcardsWithinAHost() throws {
        let policy = SourcePolicy(configuration { $0.sources.allowedSources = ["local://", "http://images.dev/", "http://*.mycdn.dev/"] }.sources)
        for allowed in ["http://images.dev/lorem/ipsum.jpg", "http://a-1.mycdn.dev/lorem/ipsum.jpg",
                        "http://a-1.b-2.mycdn.dev/lorem/ipsum.jpg"] {
            XCTAssertEqual(try policy.resolve(XCTUnwrap(URL(string: allowed))).absoluteString, allowed)
        }
        for refused in ["http://other.dev/.mycdn.dev/lorem/ipsum.jpg", "http://mycdn.dev/lorem/ipsum.jpg",
                        "s3://images/lorem/ipsum.jpg", "http://images.dev.evil/x.jpg"] {
            XCTAssertThrowsError(try policy.resolve(XCTUnwrap(URL(string: refused))), refused) { error in
                XCTAssertEqual((error as? ProcessingError)?.status, 404, refused)
            }
        }
    }

    func testNotAnImageIsUnprocessable() async throws {
        try Data("not an image".utf8).write(to: root.appendingPathComponent("text.jpg"))
        do {
            _ = try await processor.process(try parser.parse("/x/plain/local:///text.jpg"))
            XCTFail("processed text")
        } catch let error as ProcessingError {
            XCTAssertEqual(error.status, 422, "\(error)")
        }
    }
}
