import Crypto
import Foundation

/// Signs and checks thumbor URLs as thumbor and libthumbor do: the signature is the URL-safe
/// base64, with `=` padding, of HMAC-SHA1(key, path), where the key is the security key's UTF-8
/// bytes (thumbor's `SECURITY_KEY`) and the path is everything after `/{signature}/`, without
/// that slash, exactly as received.
///
/// With a key set, `unsafe` URLs are refused (thumbor's `ALLOW_UNSAFE_URL = False`) unless
/// ``allowsUnsafe``; without one, nothing is checked, as imgproxy URLs without a key are not.
public struct ThumborURLSigner: Sendable {
    /// The HMAC key's bytes, or nil when signing is off.
    let key: [UInt8]?
    /// Whether `unsafe` URLs are answered although a key is set (thumbor's `ALLOW_UNSAFE_URL`,
    /// on by default in thumbor, off by default here).
    public let allowsUnsafe: Bool

    /// A signer with the security key `key` (nil or empty turns signing off), still answering
    /// `unsafe` URLs when `allowsUnsafe`.
    public init(key: String?, allowsUnsafe: Bool = false) {
        self.key = key.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
        self.allowsUnsafe = allowsUnsafe
    }

    /// Whether URLs are checked at all.
    public var isEnabled: Bool { key != nil }

    /// The signature of `path` (thumbor's form, without a leading `/`: `fit-in/300x200/cat.jpg`);
    /// `unsafe` when signing is off.
    public func signature(for path: String) -> String {
        guard let key else { return "unsafe" }
        return Data(Self.digest(of: path, key: key)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    /// `/{signature}/{path}`: `path` (without a leading `/`) signed, ready to append to the server's address.
    public func sign(_ path: String) -> String {
        "/\(signature(for: path))/\(path)"
    }

    /// Passes when signing is off or `signature` (percent-encoded or not, padded or not) is the
    /// signature of `path` (without a leading `/`); throws ``URLSignatureError/unsigned`` for
    /// `unsafe` (unless ``allowsUnsafe``) and ``URLSignatureError/forbidden`` for any other
    /// mismatch, compared in constant time.
    public func verify(signature: String, for path: String) throws(URLSignatureError) {
        guard let key else { return }
        let given = signature.removingPercentEncoding ?? signature
        guard given != "unsafe" else {
            if allowsUnsafe { return }
            throw .unsigned
        }
        guard let bytes = URLSafeBase64.decode(given) else { throw .forbidden }
        guard URLSigner.constantTimeEqual(bytes, Self.digest(of: path, key: key)) else { throw .forbidden }
    }

    /// Whether a first segment is thumbor's: `unsafe` or a padded 20-byte URL-safe base64 signature.
    static func isSignatureSegment(_ segment: String) -> Bool {
        segment == "unsafe" || segment.utf8.count == 28 && segment.hasSuffix("=")
            && URLSafeBase64.decode(segment)?.count == 20
    }

    /// HMAC-SHA1(key, path).
    private static func digest(of path: String, key: [UInt8]) -> [UInt8] {
        Array(HMAC<Insecure.SHA1>.authenticationCode(for: Array(path.utf8), using: SymmetricKey(data: key)))
    }
}
