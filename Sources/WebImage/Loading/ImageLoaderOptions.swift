import AsyncHTTPClient
import Foundation

/// Changes the HTTP request before it is sent (SDWebImage's `SDWebImageDownloaderRequestModifier`),
/// for example to add a fresh token. Returning `nil` drops the request: the load fails with
/// ``WebImageError/invalidDownloadOperation``.
public typealias ImageRequestModifier = @Sendable (HTTPClientRequest) async throws -> HTTPClientRequest?

/// Changes the response head before it is checked (SDWebImage's `SDWebImageDownloaderResponseModifier`).
/// Returning `nil` drops the response: the load fails with ``WebImageError/invalidDownloadResponse``.
public typealias ImageResponseModifier = @Sendable (ImageLoadResponse) async throws -> ImageLoadResponse?

/// Turns the received bytes into the bytes to decode (SDWebImage's `SDWebImageDownloaderDecryptor`),
/// for images served encrypted or encoded. A thrown error fails the load with
/// ``WebImageError/badImageData(_:)``.
public typealias ImageDataDecryptor = @Sendable (Data, ImageLoadResponse) throws -> Data

/// How one caller wants one image loaded: SDWebImage's per-request options and context.
///
/// Several callers of one URL share one HTTP request (see ``HTTPImageDownloader``). Each keeps
/// its own ``priority``, ``decodeOptions``, ``coders``, ``progressive`` and ``progressInterval``;
/// the request-shaping values (``requestModifier``, ``responseModifier``, ``decryptor``,
/// ``allowInvalidSSLCertificates``, ``handleCookies``, ``retryPolicy``) are those of the caller that started the
/// request. ``ifNoneMatch`` and ``ifModifiedSince`` are part of what is shared: only callers
/// with the same validators share a request.
public struct ImageLoaderOptions: Sendable {
    /// Where the request goes in the queue.
    public var priority: DownloadPriority
    /// Scale, thumbnail size, scale-down limit and frame choice for the decoded image.
    public var decodeOptions: ImageDecodeOptions
    /// The coders that decode the bytes.
    public var coders: ImageCoders
    /// Deliver partial images while the bytes arrive (SDWebImage's `progressiveLoad`).
    public var progressive: Bool
    /// The least time between two progress events for this caller; the last one always comes.
    public var progressInterval: Duration
    /// Changes the request before it is sent.
    public var requestModifier: ImageRequestModifier?
    /// Changes the response head before it is checked.
    public var responseModifier: ImageResponseModifier?
    /// Turns the received bytes into the bytes to decode.
    public var decryptor: ImageDataDecryptor?
    /// The cached copy's ETag: sent as `If-None-Match`; a `304` fails with
    /// ``WebImageError/cacheNotModified``.
    public var ifNoneMatch: String?
    /// The cached copy's Last-Modified date: sent as `If-Modified-Since`.
    public var ifModifiedSince: String?
    /// Accept any server certificate for this request (SDWebImage's `allowInvalidSSLCertificates`).
    public var allowInvalidSSLCertificates: Bool
    /// Send and store cookies for this request (SDWebImage's `handleCookies`).
    public var handleCookies: Bool
    /// When this request is tried again after a failure, over the downloader's
    /// ``HTTPImageDownloader/Configuration/retryPolicy``; nil: the downloader's.
    public var retryPolicy: DownloadRetryPolicy?

    /// Options with the given values; the defaults load a full-size image at normal priority
    /// with ``ImageCoders/shared``.
    public init(
        priority: DownloadPriority = .normal,
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
        coders: ImageCoders = .shared,
        progressive: Bool = false,
        progressInterval: Duration = .zero,
        requestModifier: ImageRequestModifier? = nil,
        responseModifier: ImageResponseModifier? = nil,
        decryptor: ImageDataDecryptor? = nil,
        ifNoneMatch: String? = nil,
        ifModifiedSince: String? = nil,
        allowInvalidSSLCertificates: Bool = false,
        handleCookies: Bool = false,
        retryPolicy: DownloadRetryPolicy? = nil
    ) {
        self.priority = priority
        self.decodeOptions = decodeOptions
        self.coders = coders
        self.progressive = progressive
        self.progressInterval = progressInterval
        self.requestModifier = requestModifier
        self.responseModifier = responseModifier
        self.decryptor = decryptor
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.allowInvalidSSLCertificates = allowInvalidSSLCertificates
        self.handleCookies = handleCookies
        self.retryPolicy = retryPolicy
    }
}
