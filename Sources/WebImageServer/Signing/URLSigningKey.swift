/// One key and salt pair for signing URLs (imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`).
public struct URLSigningKey: Sendable, Hashable {
    /// The HMAC key.
    public let key: [UInt8]
    /// The bytes hashed before the path.
    public let salt: [UInt8]

    /// A pair from raw bytes.
    public init(key: [UInt8], salt: [UInt8]) {
        self.key = key
        self.salt = salt
    }

    /// A pair from hexadecimal text, as imgproxy takes them.
    public init(hexKey: String, hexSalt: String) throws(URLSignatureError) {
        guard let key = Self.bytes(hex: hexKey) else { throw .invalidHex(what: "key") }
        guard let salt = Self.bytes(hex: hexSalt) else { throw .invalidHex(what: "salt") }
        self.init(key: key, salt: salt)
    }

    /// The bytes hexadecimal `text` spells, or nil when it has an odd length or another character.
    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[pair]), let low = nibble(digits[pair + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
