import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// Progress events and progressive (partial) images.
final class LoadingProgressTests: LoadingTestCase {
    func testProgressIsMonotonicAndEndsAtTheByteCount() async throws {
        let jpeg = try bench("testjfif_1024.jpg")
        server.route("/photo.jpg", .slow(jpeg, chunkSize: 16 << 10, delay: .milliseconds(5)))
        let downloader = makeDownloader()
        let events = Recorder<ImageLoadingProgress>()
        let result = try await downloader.image(for: server.url("/photo.jpg"), options: options()) { event in
            if case .progress(let progress) = event { events.append(progress) }
        }
        let received = events.all.map(\.receivedBytes)
        XCTAssertGreaterThanOrEqual(received.count, 3)
        XCTAssertEqual(received, received.sorted())
        XCTAssertEqual(Set(received).count, received.count, "no event repeats a count")
        XCTAssertEqual(received.last, jpeg.count)
        XCTAssertTrue(events.all.allSatisfy { $0.expectedBytes == jpeg.count }, "Content-Length gives the total")
        XCTAssertEqual(events.all.last?.fractionCompleted, 1)
        XCTAssertEqual(result.response.expectedContentLength, jpeg.count)
    }

    func testProgressWithoutContentLengthHasNoExpectedBytes() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        var response = LoopbackHTTPResponse.slow(jpeg, chunkSize: 4096, delay: .milliseconds(5))
        response.headers.append(("Transfer-Encoding", "chunked"))
        server.route("/chunked.jpg", response)
        let downloader = makeDownloader()
        let events = Recorder<ImageLoadingProgress>()
        _ = try await downloader.image(for: server.url("/chunked.jpg"), options: options()) { event in
            if case .progress(let progress) = event { events.append(progress) }
        }
        XCTAssertTrue(events.all.allSatisfy { $0.expectedBytes == nil })
        XCTAssertEqual(events.all.last?.receivedBytes, jpeg.count)
    }

    func testProgressIntervalThrottlesButKeepsTheLastEvent() async throws {
        let jpeg = try bench("testjfif_1024.jpg")
        server.route("/photo.jpg", .slow(jpeg, chunkSize: 4096, delay: .milliseconds(2)))
        let downloader = makeDownloader()
        var throttled = options()
        throttled.progressInterval = .seconds(10)
        let events = Recorder<ImageLoadingProgress>()
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: throttled) { event in
            if case .progress(let progress) = event { events.append(progress) }
        }
        XCTAssertEqual(events.all.map(\.receivedBytes), [0, jpeg.count])
    }

    /// Serves `name` slowly in 16 KiB parts and checks that partial images of full size come
    /// before the final image.
    private func assertPartialImages(_ name: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let bytes = try bench(name)
        server.route("/\(name)", .slow(bytes, chunkSize: 16 << 10, delay: .milliseconds(40)))
        let downloader = makeDownloader()
        let partials = Recorder<Image>()
        let result = try await downloader.image(for: server.url("/\(name)"), options: options(progressive: true)) { event in
            if case .partialImage(let image) = event { partials.append(image) }
        }
        XCTAssertGreaterThanOrEqual(partials.count, 2, file: file, line: line)
        for partial in partials.all {
            XCTAssertTrue(partial.isIncomplete, file: file, line: line)
            XCTAssertEqual(partial.pixelWidth, 1024, file: file, line: line)
            XCTAssertEqual(partial.pixelHeight, 768, file: file, line: line)
        }
        XCTAssertFalse(result.image.isIncomplete, file: file, line: line)
        XCTAssertEqual(result.image.pixelWidth, 1024, file: file, line: line)
    }

    func testProgressiveJPEGDeliversPartialImagesBeforeTheFinalOne() async throws {
        try await assertPartialImages("testjfif_1024.progressive.jpg")
    }

    func testWebPDeliversPartialImagesBeforeTheFinalOne() async throws {
        try await assertPartialImages("testjfif_1024.webp")
    }

    func testAnAnimatedGIFDeliversTheFramesReceivedSoFar() async throws {
        let gif = try Fixtures.imageData("gif/sd_1@2x.gif")
        server.route("/animated.gif", .slow(gif, chunkSize: 64 << 10, delay: .milliseconds(40)))
        let downloader = makeDownloader()
        let partials = Recorder<Image>()
        let result = try await downloader.image(for: server.url("/animated.gif"), options: options(progressive: true)) { event in
            if case .partialImage(let image) = event { partials.append(image) }
        }
        let counts = partials.all.map(\.frames.count)
        XCTAssertGreaterThanOrEqual(counts.count, 2)
        XCTAssertEqual(counts, counts.sorted(), "frames only ever arrive")
        XCTAssertGreaterThan(counts.last ?? 0, 1, "an animation, not its first frame alone")
        XCTAssertTrue(partials.all.allSatisfy { $0.isIncomplete && $0.pixelWidth == result.image.pixelWidth })
        XCTAssertFalse(result.image.isIncomplete)
        XCTAssertEqual(result.image.frames.count, 44)
    }

    func testNoPartialImagesWithoutTheProgressiveOption() async throws {
        let jpeg = try bench("testjfif_1024.progressive.jpg")
        server.route("/progressive.jpg", .slow(jpeg, chunkSize: 16 << 10, delay: .milliseconds(5)))
        let downloader = makeDownloader()
        let partials = Recorder<Image>()
        _ = try await downloader.image(for: server.url("/progressive.jpg"), options: options()) { event in
            if case .partialImage(let image) = event { partials.append(image) }
        }
        XCTAssertEqual(partials.count, 0)
    }
}
