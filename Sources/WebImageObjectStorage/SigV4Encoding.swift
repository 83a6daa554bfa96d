/// The percent-encoding AWS Signature Version 4 prescribes (its `UriEncode`): every byte of
/// the UTF-8 text but the unreserved letters, digits and `-._~` as `%XX` in capitals; `/`
/// kept in paths only. The request's own path and query are written with it too, so that
/// what is signed is what is sent.
enum SigV4Encoding {
    /// `text` encoded as a query name or value: `/` encoded too.
    static func encode(_ text: String) -> String {
        encode(text, keepingSlash: false)
    }

    /// `path` encoded as a path: each segment encoded, the slashes kept.
    static func encodePath(_ path: String) -> String {
        encode(path, keepingSlash: true)
    }

    private static func encode(_ text: String, keepingSlash: Bool) -> String {
        var encoded = [UInt8]()
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
