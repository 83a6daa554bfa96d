import AsyncHTTPClient
import Foundation
import WebImage

/// Loads `s3://bucket/key` sources (`s3://bucket/key?VERSION` for a version of the object): each is asked of the endpoint as a signed `GET` through an
/// ``HTTPImageDownloader``, so that object reads share its coalescing, size limit, timeouts and
/// queue with every other download, and decode as any download does.
///
/// The request is signed (``SigV4Signer``) by the request modifier as it is sent, with the time
/// then. A missing object fails with ``WebImageError/badStatusCode(_:)`` 404, a refused one with
/// 403 (S3 answers 403 for a missing object too when the credentials may not list the bucket).
/// No credential is part of the URL, so none reaches an error or a log line.
public struct ObjectStorageImageLoader: ImageLoader {
    /// The downloader the signed requests go through. Give it no source address policy (the
    /// endpoint is the operator's, not a client's) and no redirects (a signature is for one host).
    public let downloader: HTTPImageDownloader
    /// Where objects are asked for.
    public let endpoint: ObjectStorageEndpoint
    /// What each request is signed with, asked as it is sent (temporary credentials change).
    public let credentials: any ObjectStorageCredentialSource
    private let now: @Sendable () -> Date

    /// A loader asking `endpoint` through `downloader` with the credentials of `credentials`
    /// (static keys, or a ``RefreshingCredentials``); `now` gives the signing time (the clock
    /// by default).
    public init(downloader: HTTPImageDownloader, endpoint: ObjectStorageEndpoint, credentials: any ObjectStorageCredentialSource,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.downloader = downloader
        self.endpoint = endpoint
        self.credentials = credentials
        self.now = now
    }

    /// Whether `url` is an `s3:` URL.
    public func canRequest(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "s3"
    }

    /// Loads and decodes the object `url` names; an address that is not a valid
    /// `s3://bucket/key` fails with ``WebImageError/invalidURL(_:)``.
    public func requestImage(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageLoadResult {
        let (target, signed) = try signedRequest(for: url, options: options)
        return try await downloader.image(for: target, options: signed, events: events)
    }

    /// Loads the bytes of the object `url` names without decoding them (a server decodes them
    /// later, in a processing slot), through the same signed request and download.
    public func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult {
        let (target, signed) = try signedRequest(for: url, options: options)
        return try await downloader.data(for: target, options: signed, events: events)
    }

    /// The endpoint URL of the object `url` names, and `options` with a request modifier that
    /// signs the request as it is sent.
    private func signedRequest(for url: URL, options: ImageLoaderOptions) throws(WebImageError)
        -> (url: URL, options: ImageLoaderOptions) {
        let target: ObjectRequestTarget
        do throws(ObjectStorageError) {
            let location = try ObjectLocation(url: url)
            guard !location.key.isEmpty else { throw .invalidLocation("it names no object") }
            target = try endpoint.target(for: location)
        } catch {
            throw .invalidURL(error.description)
        }
        var options = options
        let credentials = credentials, region = endpoint.region, now = now
        options.requestModifier = { request in
            let signer = SigV4Signer(credentials: try await credentials.credentials(), region: region)
            var signed = request
            signed.headers.replaceOrAdd(name: "Host", value: target.host)
            let headers = signer.signingHeaders(for: target.signingRequest(method: request.method.rawValue), at: now())
            for (name, value) in headers { signed.headers.replaceOrAdd(name: name, value: value) }
            return signed
        }
        return (target.url, options)
    }

    /// Blocks nothing: an object missing now may be uploaded a moment later.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        false
    }
}
