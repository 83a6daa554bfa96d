import Foundation

/// Base64 with the URL-safe alphabet (`-` and `_` for `+` and `/`), as imgproxy uses for
/// signatures, encoded source URLs and encoded file names.
enum URLSafeBase64 {
    /// `bytes` encoded without `=` padding.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes `text` encodes, with or without padding; nil for any character outside the
    /// URL-safe alphabet or a length no encoding has.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard body.utf8.count % 4 != 1, body.utf8.allSatisfy(isAlphabet) else { return nil }
        let standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = standard + String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: padded).map(Array.init)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
