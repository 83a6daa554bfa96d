import Foundation
import WebImage

/// Why a request produced no image, with the HTTP status a server answers it with. The
/// descriptions are one line for the response body: they never carry a key, a local path or a
/// stack.
public enum ProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path is not a valid imgproxy URL (400).
    case invalidURL(ProcessingURLError)
    /// The signature is wrong or missing, or the object storage denied access to the source (403).
    case forbidden(String)
    /// A thumbor URL's signature is wrong, or it is `unsafe` where thumbor URLs must be signed:
    /// 400, as thumbor answers both (imgproxy's URLs are ``forbidden(_:)``).
    case thumborSignatureRefused(String)
    /// The source URL is not one this server loads: outside the allowed sources, at a refused
    /// address, a local or `s3` source where those are off, a path leaving the local root (404,
    /// as imgproxy answers a source URL it does not allow).
    case sourceRefused(String)
    /// The URL's `expires` time has passed (404, as imgproxy).
    case expired
    /// The source does not exist: the origin answered 404 or 410, or the local file is missing (404).
    case sourceNotFound
    /// The origin failed: another status, a refused connection, a network error (502).
    case sourceFailed(String)
    /// The origin sent nothing within the timeout (504).
    case sourceTimedOut
    /// The source is over the size limit (422, as imgproxy answers it).
    case sourceTooLarge(String)
    /// The origin answered `304 Not Modified` to the client's validators, sent on with the
    /// source's download (``SourceConditions``): the client's copy is current, and the answer is
    /// a 304 with what the origin said (304, not an error to the client).
    case sourceNotModified(OriginHeaders)
    /// The source's bytes are no image this server can decode: empty, of an unknown format,
    /// corrupt or cut off (422).
    case notAnImage(String)
    /// The source is an image this server cannot process: too many pixels or frames, a
    /// feature not supported, a result over the limits (422).
    case unprocessable(String)
    /// The image of a thumbor `watermark` or `frame` filter could not be loaded or decoded (400,
    /// as thumbor answers a failing mark): missing, failing, too slow or no image.
    case watermarkFailed(String)
    /// The options ask for something this server does not do (422).
    case unsupported(String)
    /// The result could not be encoded (500).
    case encodingFailed(String)
    /// Every processing slot is busy and the queue is full (429).
    case busy
    /// The request was not answered within the server's timeout; its work was cancelled (504).
    case deadlineExceeded(seconds: Double)
    /// The request was cancelled before its result was made (499, as imgproxy and nginx say
    /// of a client that closed its request).
    case cancelled

    /// The HTTP status a server answers with.
    public var status: Int {
        switch self {
        case .sourceNotModified: 304
        case .invalidURL(.securityOptionNotAllowed): 403
        case .invalidURL(.unwritableFormat): 422
        case .invalidURL, .watermarkFailed, .thumborSignatureRefused: 400
        case .forbidden: 403
        case .expired, .sourceNotFound, .sourceRefused: 404
        case .sourceTooLarge, .notAnImage, .unprocessable, .unsupported: 422
        case .busy: 429
        case .cancelled: 499
        case .encodingFailed: 500
        case .sourceFailed: 502
        case .sourceTimedOut, .deadlineExceeded: 504
        }
    }

    /// The status a URL in `form` is answered with: ``status``, except that thumbor answers a
    /// source it cannot decode or process (no image, a decompression bomb) with 400.
    public func status(answering form: ProcessingURLForm) -> Int {
        switch (self, form) {
        case (.notAnImage, .thumbor), (.unprocessable, .thumbor): 400
        default: status
        }
    }

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case let .invalidURL(error): error.description
        case let .forbidden(reason): "forbidden: \(reason)"
        case let .thumborSignatureRefused(reason): "malformed URL: \(reason)"
        case let .sourceRefused(reason): "not allowed: \(reason)"
        case .expired: "the URL has expired"
        case .sourceNotModified: "the source image has not changed since the client's copy"
        case .sourceNotFound: "the source image was not found"
        case let .sourceFailed(reason): "the source image could not be loaded: \(reason)"
        case .sourceTimedOut: "the source image did not arrive in time"
        case let .deadlineExceeded(seconds): "the image was not ready within \(seconds.plainText) s"
        case let .sourceTooLarge(reason): "the source image is too large: \(reason)"
        case let .notAnImage(reason), let .unprocessable(reason): "the source image cannot be processed: \(reason)"
        case let .watermarkFailed(reason): "the image of a watermark or frame filter could not be loaded: \(reason)"
        case let .unsupported(reason): "unsupported: \(reason)"
        case let .encodingFailed(reason): "the result could not be encoded: \(reason)"
        case .busy: "too many requests: try again later"
        case .cancelled: "the request was cancelled"
        }
    }

    /// Whether a configured fallback image is answered instead: the source is missing, its
    /// origin failed or was too slow, or its bytes are no image. Never for a refused or bad
    /// URL, a source too large, or the server's own limits.
    public var allowsFallback: Bool {
        switch self {
        case .sourceNotFound, .sourceFailed, .sourceTimedOut, .notAnImage: true
        default: false
        }
    }

    /// What a failure to load a thumbor overlay's image (a watermark's mark, a frame's
    /// nine-patch) is answered with: a refused image, one
    /// over a size limit and the server's own refusals as they are, anything else
    /// ``watermarkFailed(_:)``, which never brings the fallback image (the source was there).
    var forWatermark: ProcessingError {
        switch self {
        case .forbidden, .sourceRefused, .sourceTooLarge, .busy, .cancelled, .deadlineExceeded, .watermarkFailed: self
        default: .watermarkFailed(description)
        }
    }

    /// The processing error for a manager's load failure of `source`: object storage's 403 is
    /// the server's too (the credentials may not read the object), an origin's is a failure.
    init(loading error: WebImageError, of source: URL) {
        if case .badStatusCode(403) = error, source.scheme?.lowercased() == "s3" {
            self = .forbidden("the object storage denied access to the source")
            return
        }
        self.init(loading: error)
    }

    /// The processing error for a manager's load failure.
    init(loading error: WebImageError) {
        switch error {
        case .badStatusCode(404), .badStatusCode(410): self = .sourceNotFound
        case .badStatusCode(let code): self = .sourceFailed("the origin answered \(code)")
        case .timedOut: self = .sourceTimedOut
        case .tooLarge(let limit): self = .sourceTooLarge("over \(limit) bytes")
        case .badImageData(let coding): self = coding.isUnusableData ? .notAnImage(coding.description) : .unprocessable(coding.description)
        case .network(let failure):
            // A local file's failure names its path on this machine: the client learns only that it is not there.
            switch failure.reason {
            case .unreadableFile: self = .sourceNotFound
            case .refusedAddress(_, let why): self = .sourceRefused(why)
            default: self = .sourceFailed(failure.description)
            }
        case .failedURL: self = .sourceFailed("it failed before and is not retried yet")
        default: self = .sourceFailed(error.description)
        }
    }
}
