import Foundation

/// The container format of encoded image bytes, recognised from the bytes themselves.
///
/// WebImage never trusts a URL's extension or a server's `Content-Type`: the format is read from
/// the leading bytes, as SDWebImage's `sd_imageFormatForImageData` does. Formats are listed here
/// even when no coder can decode them, so that an error can say *which* format is unsupported.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case jpeg
    case png
    case gif
    case webp
    case tiff
    case bmp
    case heic
    case heif
    case avif
    case jxl
    case pdf
    case svg
    case ico
    /// The bytes match no format WebImage knows.
    case undefined

    /// The lowercase name used in messages, JSON output and file extensions.
    public var description: String { rawValue }

    /// The usual file extension for this format, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .undefined: ""
        default: rawValue
        }
    }

    /// Whether the format describes shapes rather than pixels (SVG, PDF): an image of it has no
    /// size of its own in pixels and is drawn at the size asked for, so a limit on the pixels a
    /// source declares does not apply to it.
    public var isVector: Bool { self == .svg || self == .pdf }

    /// Whether the format can store transparency; an image written in one that cannot is
    /// flattened onto ``ImageEncodeOptions/backgroundColor`` first. Only JPEG has no alpha.
    public var storesAlpha: Bool { self != .jpeg }

    /// Detects the format from the leading bytes of `data`.
    public init(detecting data: Data) {
        self = data.withUnsafeBytes { ImageFormat.detect(UnsafeRawBufferPointer(rebasing: $0.prefix(512))) }
    }

    /// Detects the format from the leading bytes (512 are enough for every format).
    public init(detecting bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ImageFormat.detect(UnsafeRawBufferPointer(rebasing: $0.prefix(512))) }
    }

    /// Called for every decode, often once per coder asked: compares in place, allocating nothing.
    private static func detect(_ b: UnsafeRawBufferPointer) -> ImageFormat {
        func starts(_ prefix: StaticString, at offset: Int = 0) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard b.count >= offset + count else { return false }
            return (0..<count).allSatisfy { b[offset + $0] == prefix.utf8Start[$0] }
        }
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && prefix.indices.allSatisfy { b[offset + $0] == prefix[$0] }
        }
        guard let first = b.first else { return .undefined }
        switch first {
        case 0xFF:
            if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
            if starts([0xFF, 0x0A]) { return .jxl }
        case 0x89:
            if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        case UInt8(ascii: "G"):
            if starts("GIF87a") || starts("GIF89a") { return .gif }
        case UInt8(ascii: "R"):
            if starts("RIFF") && starts("WEBP", at: 8) { return .webp }
        case UInt8(ascii: "I"), UInt8(ascii: "M"):
            if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) || starts([0x49, 0x49, 0x2B, 0x00])
                || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }  // TIFF, then BigTIFF
        case UInt8(ascii: "B"):
            if starts("BM") { return .bmp }
        case UInt8(ascii: "%"):
            if starts("%PDF") { return .pdf }
        case 0x00:
            if starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return .jxl }
            if starts([0x00, 0x00, 0x01, 0x00]) || starts([0x00, 0x00, 0x02, 0x00]) { return .ico }
        default:
            break
        }
        if starts("ftyp", at: 4), b.count >= 12 { return isobmffFormat(b) }
        if isSVG(b) { return .svg }
        return .undefined
    }

    /// An ISO-BMFF file by its `ftyp` brands: the major brand names HEIC or AVIF; a generic
    /// HEIF major brand (`mif1`, `msf1`, `mif2`, `miaf`) is AVIF when `avif`/`avis` is among the
    /// compatible brands, else HEIF.
    private static func isobmffFormat(_ b: UnsafeRawBufferPointer) -> ImageFormat {
        let heic: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
        let avif: Set = ["avif", "avis"]
        func brand(at offset: Int) -> String { String(decoding: b[offset..<offset + 4], as: UTF8.self) }
        let major = brand(at: 8)
        if heic.contains(major) { return .heic }
        if avif.contains(major) { return .avif }
        guard ["mif1", "msf1", "mif2", "miaf"].contains(major) else { return .undefined }
        let boxSize = b[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let end = min(boxSize, b.count)
        let compatible = stride(from: 16, to: end - 3, by: 4).map { brand(at: $0) }
        return compatible.contains(where: avif.contains) ? .avif : .heif
    }

    /// SVG is text: an `<svg` root, perhaps after a prolog of XML declaration, comments and an
    /// `svg` doctype (an HTML page with an inline `<svg>` is not SVG).
    private static func isSVG(_ b: UnsafeRawBufferPointer) -> Bool {
        var rest = Substring(String(decoding: b, as: UTF8.self))
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            if rest.hasPrefix("<svg") || rest.hasPrefix("<!DOCTYPE svg") { return true }
            guard rest.hasPrefix("<?xml") || rest.hasPrefix("<!--"),
                  let end = rest.range(of: rest.hasPrefix("<?xml") ? "?>" : "-->") else { return false }
            rest = rest[end.upperBound...]
        }
    }
}
