/// Why a URL's signature was refused, or why signing could not be set up. The messages never
/// include a key, a salt or the expected signature.
public enum URLSignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The signature does not match any key and salt: a server answers 403.
    case forbidden
    /// The URL is not signed (thumbor's `unsafe`) but signing is on: a server answers 403.
    case unsigned
    /// A key or salt given on the command line or in the environment is not hexadecimal.
    case invalidHex(what: String)
    /// Keys and salts were not given in pairs.
    case unpairedKeys(keys: Int, salts: Int)
    /// The signature size is not 1…32 bytes.
    case invalidSignatureSize(Int)

    /// One line saying what was wrong.
    public var description: String {
        switch self {
        case .forbidden: "invalid signature"
        case .unsigned: "unsigned URLs are refused: this server checks signatures"
        case let .invalidHex(what): "the \(what) is not hexadecimal"
        case let .unpairedKeys(keys, salts): "\(keys) key(s) but \(salts) salt(s): give them in pairs"
        case let .invalidSignatureSize(size): "signature size \(size) is not 1…32 bytes"
        }
    }
}
