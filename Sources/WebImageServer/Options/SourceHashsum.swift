import Crypto
import Foundation

/// A digest of a source's bytes that imgproxy's `hashsum` and `calc_hashsums` options name:
/// `md5`, `sha1`, `sha256` or `sha512`, written as lowercase hex.
public enum SourceHashsum: String, Sendable, Hashable, CaseIterable {
    case md5, sha1, sha256, sha512

    /// The digest of `data` in lowercase hex.
    public func hex(of data: Data) -> String {
        switch self {
        case .md5: Self.hex(Insecure.MD5.hash(data: data))
        case .sha1: Self.hex(Insecure.SHA1.hash(data: data))
        case .sha256: Self.hex(SHA256.hash(data: data))
        case .sha512: Self.hex(SHA512.hash(data: data))
        }
    }

    /// The number of hex digits a digest of this kind has.
    var hexLength: Int {
        switch self {
        case .md5: 32
        case .sha1: 40
        case .sha256: 64
        case .sha512: 128
        }
    }

    private static func hex(_ digest: some Digest) -> String {
        digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
}
