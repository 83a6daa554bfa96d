import Foundation
import WebImage

/// The JSON an `/info` URL answers, in imgproxy's field names (`getting_info.mdx`); a field
/// not asked for is absent. Keys are written sorted, so equal descriptions are equal bytes
/// (and have one `ETag`).
struct SourceDescription: Encodable {
    /// A colour as imgproxy writes it: `{"R": …, "G": …, "B": …, "A": …}`, or without `A` for
    /// the dominant colours' swatches, which are opaque.
    struct Color: Encodable {
        var R: Int, G: Int, B: Int
        var A: Int?

        init(_ rgba: RGBA, alpha: Bool = true) {
            R = Int(rgba.r)
            G = Int(rgba.g)
            B = Int(rgba.b)
            A = alpha ? Int(rgba.a) : nil
        }
    }

    /// The six dominant colours by imgproxy's names; a swatch the image has no colour for is absent.
    struct DominantSwatches: Encodable {
        var vibrant: Color?
        var light_vibrant: Color?
        var dark_vibrant: Color?
        var muted: Color?
        var light_muted: Color?
        var dark_muted: Color?

        init(_ colors: DominantColors) {
            func swatch(_ colour: RGBA?) -> Color? { colour.map { Color($0, alpha: false) } }
            vibrant = swatch(colors.vibrant)
            light_vibrant = swatch(colors.lightVibrant)
            dark_vibrant = swatch(colors.darkVibrant)
            muted = swatch(colors.muted)
            light_muted = swatch(colors.lightMuted)
            dark_muted = swatch(colors.darkMuted)
        }
    }

    /// A crop's place as fractions of the image's sides.
    struct Crop: Encodable {
        var left: Double, top: Double, width: Double, height: Double
    }

    /// An IPTC, Photoshop or XMP value: text, a number, or a list of texts.
    enum Value: Encodable, Equatable {
        case text(String)
        case number(Double)
        case list([String])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .list(let list): try container.encode(list)
            }
        }
    }

    var size: Int?
    var format: String?
    var mime_type: String?
    var width: Int?
    var height: Int?
    var orientation: Int?
    var exif: [String: String]?
    var iptc: [String: Value]?
    var photoshop: [String: [String: Value]]?
    var xmp: [String: [String: Value]]?
    var colorspace: String?
    var bands: Int?
    var sample_format: String?
    var pages_number: Int?
    var alpha: Bool?
    var has_transparency: Bool?
    var crop: Crop?
    var palette: [Color]?
    var average: Color?
    var dominant_colors: DominantSwatches?
    var blurhash: String?
    var thumb_hash: String?
    var perceptual_hash: String?
    var hashsums: [String: String]?

    /// The JSON bytes, keys sorted.
    func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a number, a list or a dictionary of them: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
