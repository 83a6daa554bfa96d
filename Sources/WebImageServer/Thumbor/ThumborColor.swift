import WebImage

/// The colours thumbor's `fill` and `background_color` filters take: `transparent`, a name, or
/// hexadecimal `rgb` / `rrggbb` without `#` (as Pillow reads them, a name first).
enum ThumborColor {
    /// The HTML 4 colour names, with `grey` and `orange`; other CSS names are refused.
    static let names: [String: UInt32] = [
        "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "grey": 0x808080, "white": 0xFFFFFF,
        "maroon": 0x800000, "red": 0xFF0000, "purple": 0x800080, "fuchsia": 0xFF00FF, "green": 0x008000,
        "lime": 0x00FF00, "olive": 0x808000, "yellow": 0xFFFF00, "navy": 0x000080, "blue": 0x0000FF,
        "teal": 0x008080, "aqua": 0x00FFFF, "orange": 0xFFA500,
    ]

    /// The opaque colour argument 0 names, or nil for `transparent`.
    static func rgba(_ arguments: OptionArguments) throws(ProcessingURLError) -> RGBA? {
        let text = arguments.values[0].lowercased()
        if text == "transparent" { return nil }
        if let value = names[text] ?? hex(text) {
            return RGBA(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF), a: 255)
        }
        throw arguments.fail("\"\(ProcessingURLError.quoting(text))\" is not a colour this server knows "
            + "(transparent, an HTML colour name, rgb or rrggbb)")
    }

    /// `rrggbb`, or `rgb` with each digit doubled, as a 24-bit value.
    private static func hex(_ text: String) -> UInt32? {
        guard text.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        switch text.utf8.count {
        case 6: return UInt32(text, radix: 16)
        case 3: return UInt32(String(text.flatMap { [$0, $0] }), radix: 16)
        default: return nil
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x61...0x66).contains(self) || (0x41...0x46).contains(self)
    }
}
