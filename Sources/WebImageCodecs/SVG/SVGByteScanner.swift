import WebImage

/// A cursor over the bytes of an SVG document, for the hand-written scan that reads it before
/// librsvg does: it compares and skips ASCII in place and reports a document that ends inside
/// a construct as ``ImageCodingError/truncated(_:)``.
struct SVGByteScanner {
    /// The document.
    let bytes: [UInt8]
    /// The position of the next byte to read.
    var position = 0

    /// Whether every byte has been read.
    var atEnd: Bool { position >= bytes.count }

    /// The byte at the position (0 at the end).
    var current: UInt8 { byte(at: position) }

    /// The byte at `offset` (0 past the end).
    func byte(at offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

    /// Whether the bytes at the position are `text` (`caseInsensitive`: ASCII letters of either case).
    func starts(with text: StaticString, caseInsensitive: Bool = false) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count {
            let a = bytes[position + offset], b = text.utf8Start[offset]
            if a != b && !(caseInsensitive && Self.lowercased(a) == Self.lowercased(b)) { return false }
        }
        return true
    }

    /// Moves past `text` when the bytes at the position are `text`; says whether they were.
    mutating func skip(_ text: StaticString, caseInsensitive: Bool = false) -> Bool {
        guard starts(with: text, caseInsensitive: caseInsensitive) else { return false }
        position += text.utf8CodeUnitCount
        return true
    }

    /// Moves past spaces, tabs and line ends.
    mutating func skipWhitespace() {
        while !atEnd, Self.isWhitespace(current) { position += 1 }
    }

    /// The bytes up to `terminator`, moving past it; throws ``ImageCodingError/truncated(_:)``
    /// when the document ends first.
    mutating func read(until terminator: StaticString) throws(ImageCodingError) -> ArraySlice<UInt8> {
        let start = position
        while !atEnd {
            if starts(with: terminator) {
                let text = bytes[start..<position]
                position += terminator.utf8CodeUnitCount
                return text
            }
            position += 1
        }
        throw .truncated(.svg)
    }

    /// A name (of an element, attribute or entity): the bytes up to whitespace or one of
    /// `/ > = < ; [ ' "`; throws when there are none.
    mutating func readName() throws(ImageCodingError) -> ArraySlice<UInt8> {
        let start = position
        while !atEnd, !Self.isWhitespace(current), !Self.nameEnds.contains(current) { position += 1 }
        guard position > start else {
            if atEnd { throw .truncated(.svg) }
            throw .corrupt(.svg, "a name was expected at byte \(position)")
        }
        return bytes[start..<position]
    }

    /// A quoted literal, `"…"` or `'…'`, without its quotes.
    mutating func readQuoted() throws(ImageCodingError) -> ArraySlice<UInt8> {
        let quote = current
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            if atEnd { throw .truncated(.svg) }
            throw .corrupt(.svg, "a quoted value was expected at byte \(position)")
        }
        position += 1
        let start = position
        while !atEnd, current != quote { position += 1 }
        guard !atEnd else { throw .truncated(.svg) }
        position += 1
        return bytes[start..<position - 1]
    }

    /// Space, tab, carriage return or line feed.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// An ASCII capital turned small; other bytes unchanged.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static let nameEnds: Set<UInt8> = Set("/>=<;['\"".utf8)
}
