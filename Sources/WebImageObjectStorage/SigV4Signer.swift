import Crypto
import Foundation
import WebImage

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) over swift-crypto's HMAC: the header fields
/// that authenticate a request to S3 and to every S3-compatible store (MinIO, Ceph RGW, R2,
/// Google Cloud Storage's interoperability mode).
///
/// The canonical request is AWS's: the method, the path encoded once and not normalised (as
/// S3 wants it), the query sorted by encoded name then value, the header fields lowercased,
/// trimmed and sorted, the signed names, the payload hash. Its SHA-256 goes into the string to
/// sign with the time and the scope (day, region, service), which is signed with a key derived
/// from the secret through that scope.
public struct SigV4Signer: Sendable {
    /// The keys.
    public let credentials: ObjectStorageCredentials
    /// The region in the scope (`us-east-1`; any name for most S3-compatible stores).
    public let region: String
    /// The service in the scope: `s3` for object storage.
    public let service: String
    /// Whether the payload hash is sent and signed as `X-Amz-Content-SHA256`, as S3 requires.
    public let signsPayloadHash: Bool

    /// The SHA-256 of an empty body, the payload hash of a `GET`.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// A signer for `service` in `region` with `credentials`.
    public init(credentials: ObjectStorageCredentials, region: String, service: String = "s3", signsPayloadHash: Bool = true) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.signsPayloadHash = signsPayloadHash
    }

    /// The header fields to add to `request` to sign it at `date`: `X-Amz-Date`, then
    /// `X-Amz-Content-SHA256` and `X-Amz-Security-Token` when they apply, then `Authorization`.
    public func signingHeaders(for request: SigV4Request, at date: Date) -> [(name: String, value: String)] {
        let time = SigV4Time(date)
        let added = addedHeaders(for: request, time: time)
        var signed = request
        signed.headers += added
        let canonical = canonicalRequest(signed)
        let scope = "\(time.day)/\(region)/\(service)/aws4_request"
        let signature = self.signature(of: stringToSign(canonical.text, time: time, scope: scope), day: time.day)
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
            + "SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
        return added + [("Authorization", authorization)]
    }

    /// The fields the signer adds before signing.
    private func addedHeaders(for request: SigV4Request, time: SigV4Time) -> [(name: String, value: String)] {
        var added: [(name: String, value: String)] = [("X-Amz-Date", time.stamp)]
        if signsPayloadHash { added.append(("X-Amz-Content-SHA256", request.payloadHash)) }
        if let token = credentials.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        return added
    }

    /// The canonical request of `request` (whose headers include the added ones) and its
    /// signed header names, `;`-separated.
    func canonicalRequest(_ request: SigV4Request) -> (text: String, signedHeaders: String) {
        let encoded: [(name: String, value: String)] = request.query.map {
            (SigV4Encoding.encode($0.name), SigV4Encoding.encode($0.value))
        }
        let sortedQuery = encoded.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let query = sortedQuery.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        var fields: [String: [String]] = [:]
        for (name, value) in request.headers {
            fields[name.lowercased(), default: []].append(Self.trimmed(value))
        }
        let sorted = fields.sorted { $0.key < $1.key }
        let headerLines = sorted.map { "\($0.key):\($0.value.joined(separator: ","))\n" }.joined()
        let signedHeaders = sorted.map(\.key).joined(separator: ";")
        let path = request.path.isEmpty ? "/" : SigV4Encoding.encodePath(request.path)
        let text = [request.method, path, query, headerLines, signedHeaders, request.payloadHash].joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// The string to sign for the canonical request `canonical` at `time` in `scope`.
    func stringToSign(_ canonical: String, time: SigV4Time, scope: String) -> String {
        "AWS4-HMAC-SHA256\n\(time.stamp)\n\(scope)\n\(Self.hex(SHA256.hash(data: Data(canonical.utf8))))"
    }

    /// The signature of `stringToSign` with the key derived for `day` (`YYYYMMDD`).
    func signature(of stringToSign: String, day: String) -> String {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// The SHA-256 of `data` in lowercase hexadecimal: the payload hash of a body.
    public static func payloadHash(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// A digest in lowercase hexadecimal.
    static func hex(_ digest: some ContiguousBytes) -> String {
        digest.withUnsafeBytes { Hexadecimal.lowercase($0) }
    }

    /// `value` without leading or trailing spaces, its runs of spaces made one.
    private static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
