import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import WebImage

/// Reads and writes whole objects at one endpoint with requests signed by ``SigV4Signer``,
/// over an AsyncHTTPClient of its own: the connection of the result tier
/// (``ObjectStorageImageCache``). Each request has a deadline, and a body is read up to a limit.
public final class ObjectStorageClient: Sendable {
    /// Where objects are asked for.
    public let endpoint: ObjectStorageEndpoint
    /// The longest a request may take, connecting included.
    public let timeout: Duration
    /// The largest object read; a larger one fails with ``ObjectStorageError/tooLarge(limit:)``.
    public let maxObjectBytes: Int
    private let credentials: any ObjectStorageCredentialSource
    private let http: HTTPClient
    private let now: @Sendable () -> Date

    /// A client of `endpoint` signing with the credentials of `credentials` (static keys, or a
    /// ``RefreshingCredentials``), each request within `timeout`, reading objects up to
    /// `maxObjectBytes`; `now` gives the signing time.
    public init(endpoint: ObjectStorageEndpoint, credentials: any ObjectStorageCredentialSource, timeout: Duration = .seconds(2),
                maxObjectBytes: Int = 64 << 20, now: @escaping @Sendable () -> Date = Date.init) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.maxObjectBytes = maxObjectBytes
        self.now = now
        self.credentials = credentials
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .nanoseconds(timeout.nanoseconds))
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// The object at `location`, or nil when there is none (404).
    public func get(_ location: ObjectLocation) async throws(ObjectStorageError) -> StoredObject? {
        let response = try await send(method: .GET, to: location)
        if response.status == .notFound { return nil }
        guard response.status == .ok else { throw .unexpectedStatus(Int(response.status.code)) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: maxObjectBytes)
        } catch is NIOTooManyBytesError {
            throw .tooLarge(limit: maxObjectBytes)
        } catch {
            throw .unreachable(String(describing: error))
        }
        var metadata: [String: String] = [:]
        for field in response.headers where field.name.lowercased().hasPrefix(Self.metadataPrefix) {
            metadata[String(field.name.lowercased().dropFirst(Self.metadataPrefix.count))] = field.value
        }
        return StoredObject(data: Data(buffer: body), contentType: response.headers.first(name: "Content-Type"),
                            etag: response.headers.first(name: "ETag"), metadata: metadata)
    }

    /// Writes `data` at `location` as `contentType`, with `metadata` (lowercase names: letters,
    /// digits and hyphens) as `x-amz-meta-NAME` fields and its MD5 as `Content-MD5`, so that the
    /// store refuses bytes damaged on the way.
    public func put(_ data: Data, at location: ObjectLocation, contentType: String, metadata: [String: String] = [:])
        async throws(ObjectStorageError) {
        var headers = [("Content-Type", contentType), ("Content-MD5", Data(MD5.digest(data)).base64EncodedString())]
        headers += metadata.sorted { $0.key < $1.key }.map { (Self.metadataPrefix + $0.key, $0.value) }
        let response = try await send(method: .PUT, to: location, headers: headers, body: data)
        guard response.status == .ok else { throw .unexpectedStatus(Int(response.status.code)) }
    }

    /// Removes the object at `location`; one that is not there is no error.
    public func delete(_ location: ObjectLocation) async throws(ObjectStorageError) {
        let response = try await send(method: .DELETE, to: location)
        guard response.status == .noContent || response.status == .ok || response.status == .notFound else {
            throw .unexpectedStatus(Int(response.status.code))
        }
    }

    /// Whether there is an object at `location` (a `HEAD`).
    public func exists(_ location: ObjectLocation) async throws(ObjectStorageError) -> Bool {
        let response = try await send(method: .HEAD, to: location)
        if response.status == .notFound { return false }
        guard response.status == .ok else { throw .unexpectedStatus(Int(response.status.code)) }
        return true
    }

    /// Closes the connections; later requests fail.
    public func shutdown() async {
        try? await http.shutdown()
    }

    /// The prefix of user metadata fields.
    static let metadataPrefix = "x-amz-meta-"

    /// Sends a signed `method` request for `location` with `headers` and `body`, within ``timeout``.
    private func send(method: HTTPMethod, to location: ObjectLocation, headers: [(String, String)] = [], body: Data? = nil)
        async throws(ObjectStorageError) -> HTTPClientResponse {
        let target = try endpoint.target(for: location)
        var request = HTTPClientRequest(url: target.url.absoluteString)
        request.method = method
        let payloadHash = body.map(SigV4Signer.payloadHash(of:)) ?? SigV4Signer.emptyPayloadHash
        let signing = target.signingRequest(method: method.rawValue, headers: headers.map { (name: $0.0, value: $0.1) },
                                            payloadHash: payloadHash)
        let signer = SigV4Signer(credentials: try await credentials.credentials(), region: endpoint.region)
        for (name, value) in signing.headers + signer.signingHeaders(for: signing, at: now()) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let body { request.body = .bytes(ByteBuffer(data: body)) }
        do {
            return try await http.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
        } catch {
            // The client's errors name at most the endpoint's host and port, never a credential.
            throw .unreachable(String(describing: error))
        }
    }
}
