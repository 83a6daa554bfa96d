import Foundation
import Locking
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// ``DownloadNotifications``: every downloader's downloads, step by step, to every listener —
/// started, the response's status, finished with its bytes or failed with its error, the
/// elapsed time growing — and nothing made once nobody listens.
final class LoadingNotificationTests: LoadingTestCase {
    func testEachDownloadIsStartedAnsweredAndFinishedOrFailed() async throws {
        let jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
        let photo = server.url("/photo.jpg"), missing = server.url("/missing.jpg")
        let stream = DownloadNotifications.shared.notifications()
        XCTAssertTrue(DownloadNotifications.shared.hasListeners)
        let received = Task {
            var seen: [DownloadNotification] = []
            for await notification in stream where notification.url == photo || notification.url == missing {
                seen.append(notification)
                if seen.filter({ $0.kind == .finished || $0.kind == .failed }).count == 2 { break }
            }
            return seen
        }
        let downloader = makeDownloader()
        _ = try await downloader.image(for: photo, options: options())
        _ = await loadError { try await downloader.image(for: missing, options: self.options()) }
        let seen = await received.value
        let ofPhoto = seen.filter { $0.url == photo }, ofMissing = seen.filter { $0.url == missing }
        XCTAssertEqual(ofPhoto.map(\.kind), [.started, .receivedResponse, .finished])
        XCTAssertEqual(ofPhoto.last?.status, 200)
        XCTAssertEqual(ofPhoto.last?.bytes, jpeg.count)
        XCTAssertEqual(Set(ofPhoto.map(\.operation)).count, 1, "one download's steps")
        XCTAssertGreaterThan(ofPhoto.last?.elapsed ?? .zero, .zero)
        XCTAssertEqual(ofMissing.map(\.kind), [.started, .receivedResponse, .failed])
        XCTAssertEqual(ofMissing[1].status, 404)
        XCTAssertEqual(ofMissing.last?.error, .badStatusCode(404))
    }

    func testAListenerGoneLeavesNoneAndRetriesAreStartedAgain() async throws {
        let asked = Mutex(0)
        let jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
        server.route("/flaky.jpg") { _ in
            asked.withLock { $0 += 1; return $0 } == 1 ? LoopbackHTTPResponse(status: 503, headers: []) : .bytes(jpeg, contentType: "image/jpeg")
        }
        let url = server.url("/flaky.jpg")
        var stream: AsyncStream<DownloadNotification>? = DownloadNotifications.shared.notifications()
        let received = Task { [stream] in
            var kinds: [DownloadNotification.Kind] = []
            for await notification in stream! where notification.url == url {
                kinds.append(notification.kind)
                if notification.kind == .finished { break }
            }
            return kinds
        }
        let downloader = makeDownloader { $0.retryPolicy = DownloadRetryPolicy(maxRetries: 1, initialDelay: 0.01, jitter: 0) }
        _ = try await downloader.image(for: url, options: options())
        let kinds = await received.value
        XCTAssertEqual(kinds, [.started, .receivedResponse, .started, .receivedResponse, .finished], "the retry is started again")
        stream = nil
        let gone = await waitUntil { !DownloadNotifications.shared.hasListeners }
        XCTAssertTrue(gone, "the listener's stream ended, and nothing is made for nobody")
    }

    /// Whether `condition` holds within five seconds.
    private func waitUntil(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
