import Foundation
import WebImage

extension ProcessingOptions {
    /// Applies one option other than `preset` (the parser expands presets) to these options,
    /// checking its arguments against `limits`.
    mutating func apply(_ name: ProcessingOptionName, _ arguments: OptionArguments,
                        limits: ProcessingURLLimits) throws(ProcessingURLError) {
        let dimension = 0...limits.maxDimension
        switch name {
        case .resize:
            try arguments.expectCount(1, 5)
            if arguments.has(0) { resizingType = try Self.resizingType(arguments, 0) }
            try applySize(arguments, from: 1, dimension: dimension)
        case .size:
            try arguments.expectCount(1, 4)
            try applySize(arguments, from: 0, dimension: dimension)
        case .resizingType:
            try arguments.expectCount(1, 1)
            resizingType = try Self.resizingType(arguments, 0)
        case .width:
            try arguments.expectCount(1, 1)
            width = try arguments.integer(0, in: dimension)
        case .height:
            try arguments.expectCount(1, 1)
            height = try arguments.integer(0, in: dimension)
        case .dpr:
            try arguments.expectCount(1, 1)
            dpr = try arguments.decimal(0, in: 0...limits.maxDPR)
            guard dpr > 0 else { throw arguments.fail("must be above 0") }
        case .enlarge:
            try arguments.expectCount(1, 1)
            enlarge = try arguments.boolean(0)
        case .gravity:
            gravity = try Self.gravity(arguments, from: 0)
        case .quality:
            try arguments.expectCount(1, 1)
            quality = try arguments.integer(0, in: 0...100)
        case .format:
            try arguments.expectCount(1, 1)
            format = try Self.format(named: arguments.values[0])
        case .blur:
            try arguments.expectCount(1, 1)
            blurSigma = try arguments.decimal(0, in: 0...limits.maxBlurSigma)
        case .rotate:
            try arguments.expectCount(1, 1)
            let angle = try arguments.integer(0, in: -3600...3600)
            guard angle % 90 == 0 else { throw arguments.fail("\(angle) is not a multiple of 90") }
            rotation = (angle % 360 + 360) % 360
        case .background:
            background = try Self.background(arguments)
        case .crop:
            try arguments.expectCount(2, 5)
            let side = 0...Double(limits.maxDimension)
            let cropGravity = arguments.values.count > 2 ? try Self.gravity(arguments, from: 2) : nil
            crop = ProcessingCrop(width: try arguments.decimal(0, in: side), height: try arguments.decimal(1, in: side),
                                  gravity: cropGravity)
        case .autoRotate:
            try arguments.expectCount(1, 1)
            autoRotate = try arguments.boolean(0)
        case .stripMetadata:
            try arguments.expectCount(1, 1)
            stripMetadata = try arguments.boolean(0)
        case .cacheBuster:
            try arguments.expectCount(1, 1)
            let text = try arguments.text(0)
            cacheBuster = text.isEmpty ? nil : text
        case .expires:
            try arguments.expectCount(1, 1)
            // Any 64-bit time, as imgproxy's int64: one in the past is simply expired.
            expires = try arguments.integer(0, in: Int.min...Int.max, digits: 20)
        case .filename:
            try arguments.expectCount(1, 2)
            let encoded = arguments.has(1) ? try arguments.boolean(1) : false
            filename = try Self.filename(arguments, encoded: encoded)
        case .returnAttachment:
            try arguments.expectCount(1, 1)
            returnAttachment = try arguments.boolean(0)
        case .preset:
            throw arguments.fail("presets are expanded by the parser")
        }
    }

    /// `width:height:enlarge:extend` starting at argument `first`; empty arguments keep their values.
    private mutating func applySize(_ arguments: OptionArguments, from first: Int,
                                    dimension: ClosedRange<Int>) throws(ProcessingURLError) {
        if arguments.has(first) { width = try arguments.integer(first, in: dimension) }
        if arguments.has(first + 1) { height = try arguments.integer(first + 1, in: dimension) }
        if arguments.has(first + 2) { enlarge = try arguments.boolean(first + 2) }
        if arguments.has(first + 3) { extend = try arguments.boolean(first + 3) }
    }

    private static func resizingType(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> ResizingType {
        guard let type = ResizingType(rawValue: String(arguments.values[index])) else {
            throw arguments.fail("\"\(ProcessingURLError.quoting(arguments.values[index]))\" is not fit, fill, fill-down, force or auto")
        }
        return type
    }

    /// `type[:x:y]` starting at argument `first`: offsets in pixels, or a focus point's fractions for `fp`.
    private static func gravity(_ arguments: OptionArguments, from first: Int) throws(ProcessingURLError) -> Gravity {
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

    /// The format an extension names: `jpg`/`jpeg`, `png`, `webp`, `avif`, `gif`.
    static func format(named name: Substring) throws(ProcessingURLError) -> ImageFormat {
        switch name.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "avif": return .avif
        case "gif": return .gif
        default: throw .unsupportedFormat(ProcessingURLError.quoting(name))
        }
    }

    /// `R:G:B` (0…255 each), `RRGGBB` or `RGB` in hexadecimal, or nothing (no background).
    private static func background(_ arguments: OptionArguments) throws(ProcessingURLError) -> RGBA? {
        switch arguments.values.count {
        case 0:
            return nil
        case 1 where arguments.values[0].isEmpty:
            return nil
        case 1:
            let hex = arguments.values[0]
            // `fff` is `ffffff`, as CSS and imgproxy read three digits: each one doubled.
            let digits = hex.utf8.count == 3 ? String(hex.flatMap { [$0, $0] }) : String(hex)
            guard digits.utf8.count == 6, digits.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }),
                  let value = UInt32(digits, radix: 16) else {
                throw arguments.fail("\"\(ProcessingURLError.quoting(hex))\" is not RRGGBB or RGB")
            }
            return RGBA(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF), a: 255)
        case 3:
            return RGBA(r: UInt8(try arguments.integer(0, in: 0...255)), g: UInt8(try arguments.integer(1, in: 0...255)),
                        b: UInt8(try arguments.integer(2, in: 0...255)), a: 255)
        default:
            throw arguments.fail("takes R:G:B or RRGGBB")
        }
    }

    /// The file name, percent-decoded, or URL-safe base64 decoded when `encoded`; no `/`, `\`,
    /// quote or control character, so it is safe in a `Content-Disposition` header.
    private static func filename(_ arguments: OptionArguments, encoded: Bool) throws(ProcessingURLError) -> String {
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
