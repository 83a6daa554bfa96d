import Foundation
import WebImage

/// imgproxy Pro's `watermark_text`: text in Pango's markup, written as an SVG document of one
/// `<text>` a line, each run a `<tspan>` with its style, so that librsvg (which lays text out
/// through Pango) draws it. Black `sans` at 16 pixels by default, as imgproxy's; the markup is
/// bounded (``maxCharacters``, ``maxTags``, sizes up to ``maxFontSize``) and read strictly: an
/// unknown tag or attribute is an error, never passed on.
struct WatermarkText {
    /// The most characters of text (markup excluded).
    static let maxCharacters = 1000
    /// The most tags.
    static let maxTags = 100
    /// The largest font size, in pixels.
    static let maxFontSize = 256.0
    /// The largest side of the drawing, in pixels.
    static let maxSide = 4096

    /// Why markup cannot be drawn.
    struct MarkupError: Error, CustomStringConvertible {
        var description: String
    }

    /// A run's style, as the tags around it set it.
    struct Style: Equatable {
        var family = "sans"
        var size = 16.0
        var bold = false
        var weight: Int?
        var italic = false
        var underline = false
        var strikethrough = false
        var colour = "#000000"
        var opacity = 1.0
        var baselineShift: String?
    }

    /// One piece of text in one style.
    struct Run {
        var text: String
        var style: Style
    }

    /// The lines of runs `markup` holds.
    let lines: [[Run]]

    /// The runs of `markup`, or a ``MarkupError`` saying what is wrong with it.
    init(markup: String) throws(MarkupError) {
        var lines: [[Run]] = [[]], styles = [Style()], names: [String] = [], text = "", characters = 0, tags = 0
        var scalars = Substring(markup)
        func flush() {
            if !text.isEmpty { lines[lines.count - 1].append(Run(text: text, style: styles.last!)) }
            text = ""
        }
        while let first = scalars.first {
            scalars = scalars.dropFirst()
            switch first {
            case "<":
                guard let end = scalars.firstIndex(of: ">") else { throw MarkupError(description: "a tag is not closed") }
                let tag = scalars[..<end]
                scalars = scalars[scalars.index(after: end)...]
                tags += 1
                guard tags <= Self.maxTags else { throw MarkupError(description: "more than \(Self.maxTags) tags") }
                flush()
                if tag.hasPrefix("/") {
                    guard let open = names.popLast(), open == tag.dropFirst() else {
                        throw MarkupError(description: "</\(tag.dropFirst().prefix(20))> closes no open tag")
                    }
                    styles.removeLast()
                } else {
                    let (name, style) = try Self.opened(tag, over: styles.last!)
                    names.append(name)
                    styles.append(style)
                }
            case "&":
                guard let end = scalars.firstIndex(of: ";"), scalars.distance(from: scalars.startIndex, to: end) <= 10 else {
                    throw MarkupError(description: "an entity is not closed by ;")
                }
                text.append(try Self.entity(scalars[..<end]))
                scalars = scalars[scalars.index(after: end)...]
                characters += 1
            case "\n":
                flush()
                lines.append([])
            default:
                // XML has no control characters but tab and the line end.
                guard first.asciiValue.map({ $0 >= 0x20 || $0 == 0x09 }) ?? true else {
                    throw MarkupError(description: "a control character in the text")
                }
                text.append(first)
                characters += 1
            }
            guard characters <= Self.maxCharacters else { throw MarkupError(description: "more than \(Self.maxCharacters) characters") }
        }
        guard names.isEmpty else { throw MarkupError(description: "<\(names.last!)> is not closed") }
        flush()
        self.lines = lines
    }

    /// The style inside the tag `tag` (its text between `<` and `>`) opened over `style`, with its name.
    private static func opened(_ tag: Substring, over style: Style) throws(MarkupError) -> (String, Style) {
        let parts = tag.split(separator: " ", maxSplits: 1)
        guard let name = parts.first.map(String.init) else { throw MarkupError(description: "an empty tag") }
        var style = style
        style.baselineShift = nil
        switch name {
        case "b": style.bold = true
        case "i": style.italic = true
        case "u": style.underline = true
        case "s": style.strikethrough = true
        case "tt": style.family = "monospace"
        case "big": style.size = min(style.size * 1.2, maxFontSize)
        case "small": style.size /= 1.2
        case "sub", "sup":
            style.size *= 0.8
            style.baselineShift = name == "sub" ? "sub" : "super"
        case "span":
            for (attribute, value) in try attributes(parts.count > 1 ? parts[1] : "") { try apply(attribute, value, to: &style) }
        default:
            throw MarkupError(description: "<\(name.prefix(20))> is no Pango tag drawn here")
        }
        if name != "span", parts.count > 1 { throw MarkupError(description: "<\(name)> takes no attributes") }
        return (name, style)
    }

    /// `name="value"` pairs, in order.
    private static func attributes(_ text: Substring) throws(MarkupError) -> [(String, String)] {
        var pairs: [(String, String)] = [], rest = text.drop { $0 == " " }
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), let quote = rest[rest.index(after: equals)...].first, quote == "\"" || quote == "'" else {
                throw MarkupError(description: "an attribute without a quoted value")
            }
            let name = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let valueEnd = rest[valueStart...].firstIndex(of: quote) else { throw MarkupError(description: "an attribute value is not closed") }
            pairs.append((name, String(rest[valueStart..<valueEnd])))
            rest = rest[rest.index(after: valueEnd)...].drop { $0 == " " }
        }
        return pairs
    }

    /// Sets the span attribute `name` to `value` on `style`.
    private static func apply(_ name: String, _ value: String, to style: inout Style) throws(MarkupError) {
        switch name {
        case "font", "font_desc":
            for word in value.split(separator: " ") {
                if let size = Double(word) { style.size = try fontSize(size) }
                else if word.lowercased() == "bold" { style.bold = true }
                else if word.lowercased() == "italic" || word.lowercased() == "oblique" { style.italic = true }
                else if word.lowercased() != "normal" { style.family = try family(String(word)) }
            }
        case "font_family", "face": style.family = try family(value)
        case "size", "font_size":
            let named: [String: Double] = ["xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24, "xx-large": 32]
            if let size = named[value] { style.size = size }
            else if let points = Double(value.hasSuffix("pt") ? String(value.dropLast(2)) : value) {
                // Pango's plain numbers are thousandths of a point (1024ths); with `pt`, points.
                style.size = try fontSize(value.hasSuffix("pt") ? points : points / 1024)
            } else { throw MarkupError(description: "size=\"\(value.prefix(20))\" is no size") }
        case "weight", "font_weight":
            switch value {
            case "bold", "heavy", "ultrabold", "semibold": style.bold = true
            case "normal", "light", "ultralight", "book": style.bold = false
            default:
                guard let weight = Int(value), (100...1000).contains(weight) else { throw MarkupError(description: "weight=\"\(value.prefix(20))\" is no weight") }
                style.weight = weight
            }
        case "style", "font_style": style.italic = value == "italic" || value == "oblique"
        case "foreground", "fgcolor", "color": style.colour = try colour(value)
        case "alpha", "fgalpha":
            if value.hasSuffix("%"), let percent = Double(value.dropLast()), (0...100).contains(percent) { style.opacity = percent / 100 }
            else if let level = Double(value), (1...65536).contains(level) { style.opacity = level / 65536 }
            else { throw MarkupError(description: "alpha=\"\(value.prefix(20))\" is no alpha") }
        case "underline": style.underline = value != "none"
        case "strikethrough": style.strikethrough = value == "true"
        default: throw MarkupError(description: "\(name.prefix(20)) is no span attribute drawn here")
        }
    }

    private static func fontSize(_ size: Double) throws(MarkupError) -> Double {
        guard size > 0, size <= maxFontSize else { throw MarkupError(description: "a size of \(size) is outside 0…\(Int(maxFontSize))") }
        return size
    }

    /// A family name of letters, digits, spaces and `-`, at most 64 of them.
    private static func family(_ name: String) throws(MarkupError) -> String {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }) else {
            throw MarkupError(description: "\"\(name.prefix(20))\" is no font family")
        }
        return name
    }

    /// `#rgb`, `#rrggbb` or a colour name of letters.
    private static func colour(_ value: String) throws(MarkupError) -> String {
        let hex = value.hasPrefix("#") ? value.dropFirst() : ""
        if (hex.count == 3 || hex.count == 6), hex.allSatisfy(\.isHexDigit) { return value }
        guard !value.isEmpty, value.count <= 32, value.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw MarkupError(description: "\"\(value.prefix(20))\" is no colour")
        }
        return value
    }

    /// The character an entity (between `&` and `;`) stands for.
    private static func entity(_ name: Substring) throws(MarkupError) -> Character {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            guard let number, let scalar = Unicode.Scalar(number), scalar.value >= 0x20 else {
                throw MarkupError(description: "&\(name.prefix(10)); is no entity")
            }
            return Character(scalar)
        }
    }

    /// `pixels` cut to the box of their pixels that are not fully transparent (one transparent
    /// pixel when all are).
    static func trimmed(_ pixels: PixelBuffer) -> PixelBuffer {
        var minX = pixels.width, minY = pixels.height, maxX = -1, maxY = -1
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<pixels.height {
                for x in 0..<pixels.width where bytes[(y * pixels.width + x) * 4 + 3] > 0 {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= 0 else { return PixelBuffer(width: 1, height: 1, fill: RGBA(r: 0, g: 0, b: 0, a: 0)) }
        return pixels.cropped(to: PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1))
    }

    /// The SVG document drawing the lines, on a transparent canvas larger than the text is
    /// likely to be (each character counted as wide as its size), its sides at most ``maxSide``.
    func svg() -> Data {
        let lineHeights = lines.map { line in (line.map(\.style.size).max() ?? 16) * 1.3 }
        let widths = lines.map { line in line.reduce(0.0) { $0 + Double($1.text.count) * $1.style.size } }
        let pad = 8.0
        let width = min(Int((widths.max() ?? 0) + 2 * pad), Self.maxSide), height = min(Int(lineHeights.reduce(0, +) + 2 * pad), Self.maxSide)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(max(width, 1))\" height=\"\(max(height, 1))\">"
        var baseline = pad
        for (line, lineHeight) in zip(lines, lineHeights) {
            baseline += lineHeight
            svg += "<text x=\"\(pad)\" y=\"\(baseline - lineHeight * 0.25)\" xml:space=\"preserve\">"
            for run in line { svg += Self.span(run) }
            svg += "</text>"
        }
        return Data((svg + "</svg>").utf8)
    }

    /// A run as a `<tspan>`, its text escaped.
    private static func span(_ run: Run) -> String {
        let style = run.style
        var attributes = ["font-family=\"\(style.family)\"", "font-size=\"\(style.size)\"", "fill=\"\(style.colour)\""]
        if let weight = style.weight { attributes.append("font-weight=\"\(weight)\"") } else if style.bold { attributes.append("font-weight=\"bold\"") }
        if style.italic { attributes.append("font-style=\"italic\"") }
        let decorations = [style.underline ? "underline" : nil, style.strikethrough ? "line-through" : nil].compactMap { $0 }
        if !decorations.isEmpty { attributes.append("text-decoration=\"\(decorations.joined(separator: " "))\"") }
        if style.opacity < 1 { attributes.append("fill-opacity=\"\(style.opacity)\"") }
        if let shift = style.baselineShift { attributes.append("baseline-shift=\"\(shift)\"") }
        var text = ""
        for character in run.text {
            switch character {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            default: text.append(character)
            }
        }
        return "<tspan " + attributes.joined(separator: " ") + ">" + text + "</tspan>"
    }
}
