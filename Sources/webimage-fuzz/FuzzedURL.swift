import Dispatch
import Foundation
import Locking
import WebImage
import WebImageServer

/// Runs fuzzed text through everything a hostile URL reaches before a connection: imgproxy's and
/// thumbor's path parsers, then the downloader's request building for every source URL they
/// give, for the text itself as a URL (absolute, and as a `Location` read against a page, which
/// a redirect's goes through the same check and building), and as the URL a request modifier
/// returns.
///
/// No request leaves the process: the downloader's address policy refuses every host, which it
/// is asked only after the request was built and checked, so building is all that runs.
struct FuzzedURL {
    /// Refuses every host: the fetch ends where a connection would start.
    private struct NoConnections: ConnectionAddressPolicy {
        func address(connectingTo host: String) async throws(NetworkFailure) -> String {
            throw NetworkFailure(.refusedAddress(host: host, why: "the fuzzer connects nowhere"))
        }
    }

    /// One downloader for every input.
    private static let downloader = HTTPImageDownloader(addressPolicy: NoConnections())
    private static let imgproxy = ProcessingURLParser()
    private static let thumbor = ThumborURLParser()
    /// The page a fuzzed `Location` is read against.
    private static let page = URL(string: "http://example.com/images/a.jpg")!

    /// The fuzzed bytes, read as UTF-8 (invalid sequences replaced).
    let data: Data

    func run() -> String {
        let text = String(decoding: data, as: UTF8.self)
        var sources: [URL] = []
        for asImgproxy in [true, false] {
            do throws(ProcessingURLError) {
                sources.append(try (asImgproxy ? Self.imgproxy.parse(text) : Self.thumbor.parse(text)).source)
            } catch {
                invariant(!error.description.contains("\n"), "a parser's message spans lines: \(error)")
            }
        }
        sources += [URL(string: text), URL(string: text, relativeTo: Self.page)?.absoluteURL].compactMap { $0 }
        var modified = ImageLoaderOptions()
        modified.requestModifier = { request in
            var request = request
            request.url = text
            return request
        }
        let outcomes = sources.map { Self.fetch($0, options: ImageLoaderOptions()) } + [Self.fetch(Self.page, options: modified)]
        return "\(sources.count) URL(s), then as a modifier's: " + outcomes.joined(separator: "; ")
    }

    /// Fetches `url` through the downloader with `options` and says how it ended. Every fetch
    /// must fail: none may connect.
    private static func fetch(_ url: URL, options: ImageLoaderOptions) -> String {
        let outcome = Mutex<String>("")
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(WebImageError) {
                _ = try await downloader.image(for: url, options: options)
                invariant(false, "\(url.absoluteString) was fetched although no connection is allowed")
            } catch {
                outcome.withLock { $0 = error.description }
            }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
    }
}
