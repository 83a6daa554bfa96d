/// RFC 9110's `token`: what a field's name, and a cookie's, may be spelled with.
enum HTTPToken {
    /// Whether `text` is a token: one or more `tchar`s.
    static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isTokenCharacter)
    }

    /// RFC 9110's `tchar`: a letter, a digit, or one of ``!#$%&'*+-.^_`|~``.
    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }
}
