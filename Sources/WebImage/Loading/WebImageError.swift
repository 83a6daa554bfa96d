/// Why an image could not be loaded (SDWebImage's `SDWebImageError` codes), in words a person
/// can read.
///
/// ``isPermanent`` tells whether asking again for the same URL would fail the same way; the
/// manager puts such URLs on its failed-URL list (SDWebImage's `failedURLs`, its blacklist).
public enum WebImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL cannot be requested: no loader for its scheme, no host, or a malformed `data:` URL.
    /// The string says what is wrong.
    case invalidURL(String)
    /// The bytes arrived but are not an image any registered coder decodes.
    case badImageData(ImageCodingError)
    /// The server answered `304 Not Modified` to a conditional request: the cached copy is current.
    case cacheNotModified
    /// The URL failed for good earlier and is not tried again (without `retryFailed`).
    case failedURL
    /// The request was never made: the request modifier returned `nil` or a request with a body
    /// (an image request has none), or the downloader was shut down.
    case invalidDownloadOperation
    /// The server answered with a status code outside the acceptable ones.
    case badStatusCode(Int)
    /// The caller cancelled the load.
    case cancelled
    /// The response modifier returned `nil`, so the response was dropped.
    case invalidDownloadResponse
    /// The response's `Content-Type` (without parameters; `nil` when absent) is not acceptable.
    case invalidContentType(String?)
    /// The body is larger than the limit, in bytes; the download was stopped early.
    case tooLarge(limit: Int)
    /// No data arrived within the download timeout, in seconds (connecting, waiting for the
    /// response, or between two reads of the body).
    case timedOut(seconds: Double)
    /// The image is not in the cache and loading was not allowed: the `fromCacheOnly` option,
    /// or the manager's `shouldDownload` hook said no. No request was made.
    case notInCache
    /// The transport failed: connection refused, host not found, untrusted certificate,
    /// connection lost, a redirect loop or too many redirects, or a file that cannot be read.
    /// The failure says which, and keeps the underlying error's text as its cause.
    case network(NetworkFailure)

    /// Whether the same request would fail again, so the URL should not be retried.
    ///
    /// Permanent: ``invalidURL(_:)``, ``badImageData(_:)``, ``invalidContentType(_:)``,
    /// ``tooLarge(limit:)``, and ``badStatusCode(_:)`` for client errors 400–499 except
    /// 408 Request Timeout and 429 Too Many Requests (both say "try again later").
    /// Never permanent: server errors (5xx), other status codes, timeouts, network errors,
    /// cancellation, and the rest.
    public var isPermanent: Bool {
        switch self {
        case .badImageData(.tooManyPixels), .badImageData(.tooManyFrames):
            // Over this load's limits, not broken: a load that decodes it smaller, or its first frame only, succeeds.
            false
        case .invalidURL, .badImageData, .invalidContentType, .tooLarge:
            true
        case .badStatusCode(let code):
            (400..<500).contains(code) && code != 408 && code != 429
        case .cacheNotModified, .failedURL, .invalidDownloadOperation, .cancelled, .notInCache,
             .invalidDownloadResponse, .timedOut, .network:
            false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let why): "invalid image URL: \(why)"
        case .badImageData(let error): "the downloaded data is not a usable image: \(error)"
        case .cacheNotModified: "the server answered 304 Not Modified: the cached image is current"
        case .failedURL: "the URL failed before and is not retried"
        case .invalidDownloadOperation: "the download was not started (the request modifier returned nil or a request with a body, or the downloader was shut down)"
        case .badStatusCode(let code): "the server answered with HTTP status \(code)"
        case .cancelled: "the image load was cancelled"
        case .invalidDownloadResponse: "the response was dropped by the response modifier"
        case .invalidContentType(let type?): "the server sent content of type \(type), which is not acceptable"
        case .invalidContentType(nil): "the server sent no Content-Type, and acceptable types are required"
        case .tooLarge(let limit): "the image data is larger than the limit of \(limit) bytes"
        case .timedOut(let seconds): "no data from the server within \(Self.seconds(seconds)) s"
        case .notInCache: "the image is not in the cache, and loading it was not allowed"
        case .network(let failure): failure.description
        }
    }

    /// The underlying error's own text, as the library that threw it describes it, when this
    /// error was translated from one: for logs and verbose output, not for people.
    public var underlyingCause: String? {
        if case .network(let failure) = self { return failure.cause }
        return nil
    }

    /// `15`, `0.5`: seconds without a needless fraction.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
