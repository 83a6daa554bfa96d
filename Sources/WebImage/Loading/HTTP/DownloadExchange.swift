import AsyncHTTPClient
import Foundation
import Locking
import NIOCore
import NIOHTTP1

/// One HTTP exchange of a download, as AsyncHTTPClient's delegate: it checks the response head,
/// collects the body within the limits and reports progress, on the client's event loop.
///
/// No task runs the exchange: its outcome arrives as the `HTTPClient.Task`'s result, and the
/// downloader hands it to a waiting caller. Work that may not block an event loop (a response
/// modifier, a partial image's decode) runs on a task while the body waits for it, through the
/// future the delegate returns; the outcome waits for it too (``whenSettled(_:)``), so that no
/// event follows a caller's completion.
///
/// AsyncHTTPClient calls a delegate's methods one after another, each after the future of the
/// one before has completed (until the exchange fails), so its state needs no lock; only the
/// work under way off the event loop, which the outcome reads, has one.
final class DownloadExchange: HTTPClientResponseDelegate, @unchecked Sendable {
    /// What an exchange ends with: the body, and the response head it came with.
    struct Outcome: Sendable {
        let data: Data
        let response: ImageLoadResponse
    }

    /// Ends an exchange at a redirect to follow, before its body is read: the downloader follows
    /// it along the download's ``RedirectTrail``.
    struct Redirected: Error {
        let target: URL
    }

    typealias Response = Outcome

    private let downloader: HTTPImageDownloader
    private let download: DownloadRequest
    private let handlesCookies: Bool
    /// The URL the latest response came from.
    private var url: URL
    private var head: ImageLoadResponse?
    private var expected: Int?
    private var data = Data()
    /// How many bytes the last partial image was decoded from.
    private var partialAt = 0
    /// The work under way off the event loop, if any.
    private let sideWork = Mutex<EventLoopFuture<Void>?>(nil)

    /// The exchange of `download`, whose request goes to `url`.
    init(_ download: DownloadRequest, to url: URL, by downloader: HTTPImageDownloader, handlesCookies: Bool) {
        self.downloader = downloader
        self.download = download
        self.url = url
        self.handlesCookies = handlesCookies
    }

    /// Calls `body` once the work this exchange started off the event loop has ended.
    func whenSettled(_ body: @escaping @Sendable () -> Void) {
        guard let pending = sideWork.withLock({ $0 }) else { return body() }
        pending.whenComplete { _ in body() }
    }

    func didVisitURL(task: HTTPClient.Task<Outcome>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        url = request.url
        download.noteActivity()
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let eventLoop = task.eventLoop
        if let next = redirectTarget(of: head) {
            return eventLoop.makeFailedFuture(Redirected(target: next))
        }
        if handlesCookies { downloader.cookies.store(head.headers["set-cookie"], from: url) }
        let response = ImageLoadResponse(url: url, statusCode: Int(head.status.code),
                                         lowercasedHeaders: ImageLoadResponse.lowercasedFields(head.headers.lazy.map { ($0.name, $0.value) }))
        guard let modifier = download.options.responseModifier else {
            do {
                try accept(response)
                return eventLoop.makeSucceededVoidFuture()
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
        }
        let promise = eventLoop.makePromise(of: Void.self)
        // A task of the request's, so that cancelling the request cancels the modifier.
        download.begin(.task(Task {
            do {
                guard let modified = try await modifier(response) else { throw WebImageError.invalidDownloadResponse }
                try Task.checkCancellation()
                try accept(modified)
                promise.succeed()
            } catch {
                promise.fail(error)
            }
        }))
        return offEventLoop(promise.futureResult)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let eventLoop = task.eventLoop
        let limit = downloader.configuration.maxBytes
        guard buffer.readableBytes <= limit - data.count else {
            return eventLoop.makeFailedFuture(WebImageError.tooLarge(limit: limit))
        }
        data.append(contentsOf: buffer.readableBytesView)
        downloader.reportProgress(of: download, received: data.count, expected: expected)
        let step = max(HTTPImageDownloader.progressiveMinimumBytes, expected.map { $0 / 20 } ?? data.count / 8)
        guard download.hasPartialImageListeners, data.count - partialAt >= step, data.count != expected else {
            return eventLoop.makeSucceededVoidFuture()
        }
        partialAt = data.count
        let promise = eventLoop.makePromise(of: Void.self)
        let (downloader, download, data) = (downloader, download, data)
        Task {
            downloader.reportPartialImage(of: download, data: data)
            promise.succeed()
        }
        return offEventLoop(promise.futureResult)
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        guard let head else { throw WebImageError.invalidDownloadResponse }
        return Outcome(data: data, response: head)
    }

    /// Records `work`, done off the event loop, as the work under way.
    private func offEventLoop(_ work: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
        sideWork.withLock { $0 = work }
        return work
    }

    /// Checks `response` (the head, possibly modified) and takes it as the one the body belongs to.
    private func accept(_ response: ImageLoadResponse) throws {
        let expected = response.expectedContentLength
        download.keepRetryAfter(response[header: "Retry-After"])
        download.notify(.receivedResponse, status: response.statusCode)
        try downloader.check(response, expectedLength: expected)
        head = response
        self.expected = expected
        data.reserveCapacity(min(expected ?? 0, downloader.configuration.maxBytes))
        downloader.reportProgress(of: download, received: 0, expected: expected)
    }

    /// Where `head` redirects to, when it is a redirect to follow: a redirect status, redirects
    /// allowed, and a `Location` in `http(s)`. Any other redirect goes on to the checks, which
    /// refuse it.
    private func redirectTarget(of head: HTTPResponseHead) -> URL? {
        guard downloader.configuration.maxRedirects > 0,
              HTTPImageDownloader.redirectStatusCodes.contains(Int(head.status.code)),
              let location = head.headers.first(name: "Location"),
              let next = URL(string: location, relativeTo: url)?.absoluteURL,
              let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return next
    }
}
