import Foundation
import WebImage

extension ProcessingOptions {
    /// `width:height:enlarge:extend[:gravity:x:y]` starting at argument `first`; empty arguments keep their values.
    mutating func applySize(_ arguments: OptionArguments, from first: Int,
                                    dimension: ClosedRange<Int>) throws(ProcessingURLError) {
        if arguments.has(first) { width = try arguments.integer(first, in: dimension) }
        if arguments.has(first + 1) { height = try arguments.integer(first + 1, in: dimension) }
        if arguments.has(first + 2) { enlarge = try arguments.boolean(first + 2) }
        if arguments.has(first + 3) {
            (extend, extendGravity) = try Self.extend(OptionArguments(option: arguments.option, values: Array(arguments.values[(first + 3)...])), from: 0)
        }
    }

    static func resizingType(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> ResizingType {
        guard let type = ResizingType(rawValue: String(arguments.values[index])) else {
            throw arguments.fail("\"\(ProcessingURLError.quoting(arguments.values[index]))\" is not fit, fill, fill-down, force or auto")
        }
        return type
    }

    /// `type[:x:y]` starting at argument `first`: offsets in pixels, or a focus point's fractions for `fp`.
    static func gravity(_ arguments: OptionArguments, from first: Int) throws(ProcessingURLError) -> Gravity {
        guard arguments.values.count > first, arguments.values.count <= first + 3 else {
            throw arguments.fail("gravity takes a type and at most two offsets")
        }
        guard let kind = GravityKind(rawValue: String(arguments.values[first])) else {
            throw arguments.fail("\"\(ProcessingURLError.quoting(arguments.values[first]))\" is not a gravity type")
        }
        let range: ClosedRange<Double> = kind == .focusPoint ? 0...1 : -1_000_000...1_000_000
        if kind == .focusPoint, arguments.values.count != first + 3 {
            throw arguments.fail("the focus point needs x and y")
        }
        if kind == .smart, arguments.values.count > first + 1 {
            throw arguments.fail("smart gravity takes no offsets")
        }
        let x = arguments.has(first + 1) ? try arguments.decimal(first + 1, in: range) : 0
        let y = arguments.has(first + 2) ? try arguments.decimal(first + 2, in: range) : 0
        return Gravity(kind: kind, x: x, y: y)
    }

    /// `enabled[:gravity:x:y]` starting at argument `first`: `extend` and `extend_aspect_ratio`,
    /// whose gravity may be any but smart (centre when absent).
    static func extend(_ arguments: OptionArguments, from first: Int) throws(ProcessingURLError) -> (Bool, Gravity) {
        guard arguments.values.count > first, arguments.values.count <= first + 4 else {
            throw arguments.fail("takes enabled and at most a gravity with two offsets")
        }
        let enabled = try arguments.boolean(first)
        guard arguments.values.count > first + 1 else { return (enabled, .centre) }
        let gravity = try Self.gravity(arguments, from: first + 1)
        guard gravity.kind != .smart else { throw arguments.fail("smart gravity cannot place an extended image") }
        return (enabled, gravity)
    }

    /// The formats a result can be written in when a URL names one: `jpg`/`jpeg`, `png`,
    /// `webp`, `avif`, `gif`, `jxl`, `heic`/`heif`, `tiff`/`tif`, `svg` (an SVG source
    /// answered as sanitized SVG; any other source cannot be written as SVG).
    static let writableFormats: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .gif, .svg, .jxl, .heic, .tiff]

    /// Sets the output format `name` names, or imgproxy Pro's `best` (``bestFormat``).
    mutating func setFormat(named name: Substring) throws(ProcessingURLError) {
        bestFormat = name == "best"
        format = bestFormat ? nil : try Self.format(named: name)
    }

    /// The format an extension names, among ``writableFormats`` (`heif` is written as `heic`:
    /// HEVC in HEIF). An image format this server reads but does not write (`bmp`, `ico`…) is
    /// a result it cannot make (422, as imgproxy answers a format it cannot save); anything
    /// else is no format.
    static func format(named name: Substring) throws(ProcessingURLError) -> ImageFormat {
        let named = try anyFormat(named: name)
        let format = named == .heif ? .heic : named
        guard writableFormats.contains(format) else { throw .unwritableFormat(ProcessingURLError.quoting(name)) }
        return format
    }

    /// `R:G:B` (0…255 each), `RRGGBB` or `RGB` in hexadecimal, or nothing (no background).
    static func background(_ arguments: OptionArguments) throws(ProcessingURLError) -> RGBA? {
        switch arguments.values.count {
        case 0:
            return nil
        case 1 where arguments.values[0].isEmpty:
            return nil
        case 1:
            return try hexColour(arguments, 0)
        case 3:
            return RGBA(r: UInt8(try arguments.integer(0, in: 0...255)), g: UInt8(try arguments.integer(1, in: 0...255)),
                        b: UInt8(try arguments.integer(2, in: 0...255)), a: 255)
        default:
            throw arguments.fail("takes R:G:B or RRGGBB")
        }
    }

    /// Argument `index` as `RRGGBB` or `RGB` in hexadecimal (`fff` is `ffffff`, as CSS and
    /// imgproxy read three digits: each one doubled).
    static func hexColour(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> RGBA {
        let hex = arguments.values[index]
        let digits = hex.utf8.count == 3 ? String(hex.flatMap { [$0, $0] }) : String(hex)
        guard digits.utf8.count == 6, digits.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }),
              let value = UInt32(digits, radix: 16) else {
            throw arguments.fail("\"\(ProcessingURLError.quoting(hex))\" is not RRGGBB or RGB")
        }
        return RGBA(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF), a: 255)
    }

    /// The file name, percent-decoded, or URL-safe base64 decoded when `encoded`; no `/`, `\`,
    /// quote or control character, so it is safe in a `Content-Disposition` header.
    static func filename(_ arguments: OptionArguments, encoded: Bool) throws(ProcessingURLError) -> String {
        let name: String
        if encoded {
            guard let bytes = URLSafeBase64.decode(arguments.values[0]), bytes.count <= 255,
                  let text = String(validating: bytes, as: UTF8.self) else {
                throw arguments.fail("not URL-safe base64 of UTF-8 text")
            }
            name = text
        } else {
            name = try arguments.text(0)
        }
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "/" || $0 == "\\" || $0 == "\"" || $0.value == 0x7F }) else {
            throw arguments.fail("a file name must be non-empty without /, \\, quotes or control characters")
        }
        return name
    }
}
