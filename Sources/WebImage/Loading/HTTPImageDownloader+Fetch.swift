import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The HTTP exchange of one shared request: build the request, check the response head, stream
/// the body within the limits.
extension HTTPImageDownloader {
    /// New bytes needed before another partial image is decoded: at least this many, and at
    /// least a twentieth of the announced length (or an eighth of what arrived, when unknown).
    static let progressiveMinimumBytes = 8 << 10
    /// The statuses whose `Location` is followed (up to ``HTTPImageDownloader.Configuration/maxRedirects``).
    static let redirectStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// Fetches the body of `download`, reporting progress and partial images to its callers.
    func fetch(_ download: DownloadRequest) async throws(WebImageError) -> (data: Data, response: ImageLoadResponse) {
        do {
            return try await exchange(download)
        } catch {
            throw webImageError(from: error, url: download.key.url)
        }
    }

    private func exchange(_ download: DownloadRequest) async throws -> (data: Data, response: ImageLoadResponse) {
        let key = download.key, options = download.options
        let handlesCookies = configuration.handleCookies || options.handleCookies
        var request = makeRequest(for: key, options: options, handlesCookies: handlesCookies)
        if let modifier = options.requestModifier {
            guard let modified = try await modifier(request) else { throw WebImageError.invalidDownloadOperation }
            request = modified
        }
        try Task.checkCancellation()
        guard let addressPolicy else {
            let response = try await client.execute(request, timeout: requestTimeout)
            // The history holds more than the first request only after redirects; reading `url`
            // parses the URL again.
            let finalURL = response.history.count > 1 ? response.url ?? key.url : key.url
            return try await receive(response, from: finalURL, of: download, handlesCookies: handlesCookies)
        }
        let (response, finalURL, pinnedClient) = try await executePinned(request, of: download, policy: addressPolicy)
        do {
            let received = try await receive(response, from: finalURL, of: download, handlesCookies: handlesCookies)
            try? await pinnedClient.shutdown()
            return received
        } catch {
            try? await pinnedClient.shutdown()
            throw error
        }
    }

    /// The idle timeout of every request, as AsyncHTTPClient counts it.
    var requestTimeout: TimeAmount {
        TimeAmount.nanoseconds(Int64(configuration.effectiveTimeout * 1_000_000_000))
    }

    /// The checked head and the body of `response` to `download`, which came from `finalURL`.
    private func receive(_ response: HTTPClientResponse, from finalURL: URL, of download: DownloadRequest,
                         handlesCookies: Bool) async throws -> (data: Data, response: ImageLoadResponse)
    {
        if handlesCookies { cookies.store(response.headers["set-cookie"], from: finalURL) }
        var head = ImageLoadResponse(url: finalURL, statusCode: Int(response.status.code),
                                     lowercasedHeaders: ImageLoadResponse.lowercasedFields(response.headers.lazy.map { ($0.name, $0.value) }))
        if let modifier = download.options.responseModifier {
            guard let modified = try await modifier(head) else { throw WebImageError.invalidDownloadResponse }
            head = modified
        }
        let expected = head.expectedContentLength
        try check(head, expectedLength: expected)
        let data = try await readBody(response.body, expected: expected, of: download)
        return (data, head)
    }

    private func makeRequest(for key: DownloadKey, options: ImageLoaderOptions, handlesCookies: Bool) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: key.url.absoluteString)
        request.method = .GET
        // The configuration's two default fields and `setValue(_:forHTTPHeaderField:)` (the
        // configuration's and the downloader's) keep the names distinct in any case, so each
        // field is added without a search for an earlier one.
        for (name, value) in headers.withLock({ $0 }) { request.headers.add(name: name, value: value) }
        if let username = configuration.username, let password = configuration.password {
            request.setBasicAuth(username: username, password: password)
        }
        if let etag = key.ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let date = key.ifModifiedSince { request.headers.replaceOrAdd(name: "If-Modified-Since", value: date) }
        if handlesCookies, let cookie = cookies.cookieHeader(for: key.url) {
            request.headers.replaceOrAdd(name: "Cookie", value: cookie)
        }
        if options.allowInvalidSSLCertificates && !configuration.allowInvalidSSLCertificates {
            request.tlsConfiguration = Self.unverifiedTLS
        }
        return request
    }

    /// Throws when the response head (whose `Content-Length` says `expectedLength`) says the
    /// body is not wanted.
    private func check(_ head: ImageLoadResponse, expectedLength: Int?) throws(WebImageError) {
        guard let status = head.statusCode else { throw .invalidDownloadResponse }
        if status == 304 { throw .cacheNotModified }
        guard configuration.acceptableStatusCodes.contains(status) else {
            if configuration.maxRedirects > 0, Self.redirectStatusCodes.contains(status), let location = head[header: "Location"] {
                // AsyncHTTPClient hands back a redirect it will not follow: one out of http(s).
                let scheme = URL(string: location)?.scheme.map { "a \($0): URL" } ?? "an unreadable location"
                throw .invalidURL("refused a redirect to \(scheme): only http and https redirects are followed")
            }
            throw .badStatusCode(status)
        }
        if configuration.acceptableContentTypes != nil {
            let mimeType = head.mimeType
            guard configuration.accepts(contentType: mimeType) else { throw .invalidContentType(mimeType) }
        }
        if let length = expectedLength, length > configuration.maxBytes {
            throw .tooLarge(limit: configuration.maxBytes)
        }
    }

    /// Reads the body up to ``HTTPImageDownloader.Configuration/maxBytes``. Leaving the loop early
    /// (limit, cancellation) drops the body stream, which closes the connection.
    private func readBody(_ body: HTTPClientResponse.Body, expected: Int?, of download: DownloadRequest) async throws -> Data {
        let limit = configuration.maxBytes
        var data = Data()
        data.reserveCapacity(min(expected ?? 0, limit))
        reportProgress(of: download, received: 0, expected: expected)
        var partialAt = 0
        for try await chunk in body {
            guard chunk.readableBytes <= limit - data.count else { throw WebImageError.tooLarge(limit: limit) }
            data.append(contentsOf: chunk.readableBytesView)
            reportProgress(of: download, received: data.count, expected: expected)
            let step = max(Self.progressiveMinimumBytes, expected.map { $0 / 20 } ?? data.count / 8)
            if data.count - partialAt >= step, data.count != expected {
                partialAt = data.count
                reportPartialImage(of: download, data: data)
            }
        }
        return data
    }
}
