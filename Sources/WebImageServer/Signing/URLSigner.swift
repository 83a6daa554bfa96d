import Crypto

/// Signs and checks URL paths exactly as imgproxy does: the URL-safe base64 (no padding) of
/// HMAC-SHA256(key, salt ‖ path), truncated to ``signatureSize`` bytes, where the path is
/// everything after the signature segment, starting with `/`, as received.
///
/// Several key and salt pairs may be given so keys can be rotated: a signature made with any
/// of them passes; new signatures use the first.
public struct URLSigner: Sendable {
    /// The pairs tried in order; empty means signing is off.
    public let keys: [URLSigningKey]
    /// How many bytes of the digest the signature keeps (imgproxy's `IMGPROXY_SIGNATURE_SIZE`), 1…32.
    public let signatureSize: Int
    /// Signatures accepted for any path (imgproxy's `IMGPROXY_TRUSTED_SIGNATURES`): long-lived
    /// URLs a deployment hands out whatever they ask for. They count only while signing is on.
    public let trustedSignatures: [String]

    /// A signer with `keys`, a signature of `signatureSize` bytes, and `trustedSignatures`.
    public init(keys: [URLSigningKey], signatureSize: Int = 32, trustedSignatures: [String] = []) throws(URLSignatureError) {
        guard (1...32).contains(signatureSize) else { throw .invalidSignatureSize(signatureSize) }
        self.keys = keys
        self.signatureSize = signatureSize
        self.trustedSignatures = trustedSignatures
    }

    /// A signer from hexadecimal keys and salts given in pairs, as on the command line.
    public init(hexKeys: [String], hexSalts: [String], signatureSize: Int = 32,
                trustedSignatures: [String] = []) throws(URLSignatureError) {
        guard hexKeys.count == hexSalts.count else { throw .unpairedKeys(keys: hexKeys.count, salts: hexSalts.count) }
        var keys: [URLSigningKey] = []
        for (key, salt) in zip(hexKeys, hexSalts) {
            keys.append(try URLSigningKey(hexKey: key, hexSalt: salt))
        }
        try self.init(keys: keys, signatureSize: signatureSize, trustedSignatures: trustedSignatures)
    }

    /// Whether URLs are checked at all.
    public var isEnabled: Bool { !keys.isEmpty }

    /// The signature of `path` with the first pair; `insecure` when signing is off.
    public func signature(for path: String) -> String {
        guard let first = keys.first else { return "insecure" }
        return URLSafeBase64.encode(digest(of: path, with: first))
    }

    /// `/{signature}{path}`: `path` signed, ready to append to the server's address.
    public func sign(_ path: String) -> String {
        "/\(signature(for: path))\(path)"
    }

    /// Passes when signing is off, `signature` is one of the ``trustedSignatures``, or it
    /// matches `path` under one of the pairs; throws ``URLSignatureError/forbidden`` otherwise.
    /// Every pair and trusted signature is compared in constant time.
    public func verify(signature: String, for path: String) throws(URLSignatureError) {
        guard isEnabled else { return }
        var matched = false
        let text = Array(signature.utf8)
        for trusted in trustedSignatures where Self.constantTimeEqual(text, Array(trusted.utf8)) {
            matched = true
        }
        if let given = URLSafeBase64.decode(signature) {
            for key in keys where Self.constantTimeEqual(given, digest(of: path, with: key)) {
                matched = true
            }
        }
        guard matched else { throw .forbidden }
    }

    /// The first ``signatureSize`` bytes of HMAC-SHA256(key, salt ‖ path).
    private func digest(of path: String, with pair: URLSigningKey) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: pair.key))
        hmac.update(data: pair.salt)
        hmac.update(data: Array(path.utf8))
        return Array(Array(hmac.finalize()).prefix(signatureSize))
    }

    /// Whether `a` and `b` are equal, taking the same time wherever they differ (a length
    /// difference returns at once: the length is public).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
    }
}
