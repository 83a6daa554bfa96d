import WebImage

/// The entities a document declares, and the references to them resolved under a budget.
///
/// Only plain text is accepted as an entity's value: no markup (`<`), no reference to another
/// entity or a character (`&`, `%`), no external file. So each reference expands once, to
/// at most its value's bytes, and the references of the whole document together expand to at
/// most ``SVGLimits/maxEntityExpansionBytes``: the nested-entity bomb has nothing to nest.
struct SVGEntities {
    /// The declared entities' values by name.
    private var values: [[UInt8]: [UInt8]] = [:]
    /// The limits the declarations and expansions are held to.
    let limits: SVGLimits
    /// Bytes expanded from references so far.
    private var expanded = 0

    /// No entities yet, held to `limits`.
    init(limits: SVGLimits) {
        self.limits = limits
    }

    /// Records entity `name` with `value`; the first declaration of a name wins, as in XML.
    mutating func declare(_ name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) throws(ImageCodingError) {
        guard values.count < limits.maxEntities else {
            throw .unsupportedFeature(.svg, "more than \(limits.maxEntities) entity declarations")
        }
        if value.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "%") }) {
            throw .unsupportedFeature(.svg, "an entity whose value holds markup or refers to other entities (an expansion bomb)")
        }
        if values[Array(name)] == nil { values[Array(name)] = Array(value) }
    }

    /// `text` with its references resolved. With `resolvingAll`, every reference becomes the
    /// characters it stands for (an attribute value or a style sheet, read as the renderer will
    /// read it) and a line end or tab becomes a space, as XML normalises attribute values;
    /// without it only declared entities are replaced and the rest is kept as written (text
    /// that goes on to librsvg as XML).
    mutating func resolve(_ text: ArraySlice<UInt8>, resolvingAll: Bool, normalisingSpace: Bool = false) throws(ImageCodingError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(normalisingSpace && (byte == 0x09 || byte == 0x0A || byte == 0x0D) ? 0x20 : byte)
                index += 1
                continue
            }
            guard let end = text[index...].firstIndex(of: UInt8(ascii: ";")) else {
                throw .corrupt(.svg, "an unterminated reference (& without ;)")
            }
            let name = text[(index + 1)..<end]
            if let value = values[Array(name)] {
                expanded += value.count
                guard expanded <= limits.maxEntityExpansionBytes else {
                    throw .unsupportedFeature(.svg, "entity references expanding to more than \(limits.maxEntityExpansionBytes) bytes")
                }
                out += value
            } else if resolvingAll {
                out += try Self.character(named: name)
            } else {
                guard Self.predefined[Array(name)] != nil || name.first == UInt8(ascii: "#") else {
                    throw .corrupt(.svg, "a reference to an undeclared entity")
                }
                out += text[index...end]
            }
            index = end + 1
        }
        return out
    }

    /// The UTF-8 bytes of a predefined entity (`lt`, `amp`…) or a character reference (`#60`, `#x3C`).
    private static func character(named name: ArraySlice<UInt8>) throws(ImageCodingError) -> [UInt8] {
        if let byte = predefined[Array(name)] { return [byte] }
        guard name.first == UInt8(ascii: "#") else { throw .corrupt(.svg, "a reference to an undeclared entity") }
        var digits = name.dropFirst()
        var radix = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        // Digits only: `UInt32(_:radix:)` would take a sign too (`&#+60;`).
        let isDigit: (UInt8) -> Bool = radix == 16
            ? { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
            : { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy(isDigit),
              let code = UInt32(String(decoding: digits, as: UTF8.self), radix: radix),
              let scalar = Unicode.Scalar(code), isXMLCharacter(code)
        else { throw .corrupt(.svg, "an invalid character reference") }
        return Array(String(Character(scalar)).utf8)
    }

    /// Whether `code` is a character XML allows: tab, the line ends and the rest from space
    /// up, less the surrogates and U+FFFE, U+FFFF. A reference to any other (a control
    /// character) would write a byte the document cannot hold.
    private static func isXMLCharacter(_ code: UInt32) -> Bool {
        code == 0x9 || code == 0xA || code == 0xD || (0x20...0xD7FF).contains(code) || (0xE000...0xFFFD).contains(code)
            || (0x10000...0x10FFFF).contains(code)
    }

    /// XML's five predefined entities.
    private static let predefined: [[UInt8]: UInt8] = [
        Array("lt".utf8): UInt8(ascii: "<"), Array("gt".utf8): UInt8(ascii: ">"), Array("amp".utf8): UInt8(ascii: "&"),
        Array("quot".utf8): UInt8(ascii: "\""), Array("apos".utf8): UInt8(ascii: "'"),
    ]
}
