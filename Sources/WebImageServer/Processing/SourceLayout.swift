import Foundation
import WebImage

/// How a source file stores its pixels, as libvips reports it for imgproxy's `/info`
/// (`colorspace`, `bands`, `sample_format`): read from JPEG's frame header (its component
/// count) and PNG's `IHDR` (colour type, bit depth, a `tRNS` chunk), and for other formats
/// from the embedded ICC profile's colour space and whether the decoded image has alpha.
struct SourceLayout: Equatable {
    /// libvips's interpretation: `srgb`, `b-w` or `cmyk`.
    var colorspace: String
    /// Channels, alpha included.
    var bands: Int
    /// libvips's sample format: `uchar` for 8 bits, `ushort` for 16.
    var sampleFormat: String

    /// The layout `data` of `format` declares, or nil when only its pixels can say (then
    /// ``init(profile:hasAlpha:)`` applies).
    static func declared(by data: Data, format: ImageFormat) -> SourceLayout? {
        data.withUnsafeBytes { bytes -> SourceLayout? in
            switch format {
            case .jpeg: jpeg(bytes)
            case .png: png(bytes)
            default: nil
            }
        }
    }

    /// The layout of a source whose ICC `profile` (nil: none) names its colour space, with an
    /// alpha channel when `hasAlpha`, 8 bits a sample.
    init(profile: ColorProfile?, hasAlpha: Bool) {
        switch profile?.colorSpace {
        case .gray?: self.init(colorspace: "b-w", bands: hasAlpha ? 2 : 1, sampleFormat: "uchar")
        case .cmyk?: self.init(colorspace: "cmyk", bands: hasAlpha ? 5 : 4, sampleFormat: "uchar")
        default: self.init(colorspace: "srgb", bands: hasAlpha ? 4 : 3, sampleFormat: "uchar")
        }
    }

    init(colorspace: String, bands: Int, sampleFormat: String) {
        self.colorspace = colorspace
        self.bands = bands
        self.sampleFormat = sampleFormat
    }

    /// The components of the first frame header (SOF0…SOF15 but DHT, JPG and DAC).
    private static func jpeg(_ bytes: UnsafeRawBufferPointer) -> SourceLayout? {
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                at += marker == 0xFF ? 1 : 2
                continue
            }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count, marker != 0xDA else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), length >= 8 {
                let precision = Int(bytes[at + 4]), components = Int(bytes[at + 9])
                let sample = precision > 8 ? "ushort" : "uchar"
                switch components {
                case 1: return SourceLayout(colorspace: "b-w", bands: 1, sampleFormat: sample)
                case 4: return SourceLayout(colorspace: "cmyk", bands: 4, sampleFormat: sample)
                default: return SourceLayout(colorspace: "srgb", bands: 3, sampleFormat: sample)
                }
            }
            at += 2 + length
        }
        return nil
    }

    /// `IHDR`'s colour type and bit depth, and whether a `tRNS` chunk adds alpha.
    private static func png(_ bytes: UnsafeRawBufferPointer) -> SourceLayout? {
        guard bytes.count >= 33 else { return nil }
        let depth = Int(bytes[24]), colourType = Int(bytes[25])
        var transparency = false
        var at = 33
        while at + 8 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            if type == "tRNS" { transparency = true }
            if type == "IDAT" || type == "IEND" { break }
            guard length >= 0, length <= bytes.count else { break }
            at += 12 + length
        }
        let sample = depth == 16 ? "ushort" : "uchar"
        let alpha = transparency ? 1 : 0
        switch colourType {
        case 0: return SourceLayout(colorspace: "b-w", bands: 1 + alpha, sampleFormat: sample)
        case 4: return SourceLayout(colorspace: "b-w", bands: 2, sampleFormat: sample)
        case 2: return SourceLayout(colorspace: "srgb", bands: 3 + alpha, sampleFormat: sample)
        case 3: return SourceLayout(colorspace: "srgb", bands: 3 + alpha, sampleFormat: "uchar")
        case 6: return SourceLayout(colorspace: "srgb", bands: 4, sampleFormat: sample)
        default: return nil
        }
    }
}
