import WebImage

/// The media ranges of a request's `Accept` fields with their qualities, read as thumbor reads
/// them: ranges split at commas and parameters at semicolons outside quoted strings; a range's
/// quality is its `q` when that is its first parameter with a value (outside 0…1 or not a
/// number: 0), and a range whose first such parameter is another one (`image/webp;profile=x`)
/// names something narrower and is left out; a type listed twice takes its highest quality.
struct AcceptedMediaRanges {
    /// The quality of each media type listed, lower-cased.
    private var qualities: [String: Double] = [:]

    /// The ranges of the `Accept` field values `fields`.
    init(_ fields: [String]) {
        for field in fields {
            for range in Self.split(Substring(field), at: ",") {
                let parts = Self.split(range, at: ";")
                let type = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                guard !type.isEmpty, let quality = Self.quality(of: parts.dropFirst()) else { continue }
                qualities[type] = max(quality, qualities[type] ?? 0)
            }
        }
    }

    /// Whether the ranges take `format`: the first of its own media types listed decides, else
    /// `image/*` when `imageWildcard` (thumbor takes it for every format; imgproxy names WebP,
    /// AVIF and JPEG XL only by their own types, as old browsers list `image/*` without
    /// reading them), else `*/*` for JPEG alone.
    func accept(_ format: ImageFormat, imageWildcard: Bool) -> Bool {
        let (named, wildcards) = Self.ranges(taking: format, imageWildcard: imageWildcard)
        guard let quality = (named + wildcards).lazy.compactMap({ qualities[$0] }).first else { return false }
        return quality > 0
    }

    /// The media types that name `format`, in the order they are looked for, and the wildcards
    /// that take it when none of them is listed.
    private static func ranges(taking format: ImageFormat, imageWildcard: Bool) -> (named: [String], wildcards: [String]) {
        switch format {
        case .jpeg: (["image/jpeg", "image/jpg"], ["image/*", "*/*"])
        case .png: (["image/png"], ["image/*"])
        case .heic: (["image/heif", "image/heic"], ["image/*"])
        default: (["image/\(format.rawValue)"], imageWildcard ? ["image/*"] : [])
        }
    }

    /// The quality a range's `parameters` give it: 1 without a parameter with a value, its `q`
    /// when that comes first (0 when not a number in 0…1), nil when another one comes first.
    private static func quality(of parameters: ArraySlice<Substring>) -> Double? {
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            guard pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" else { return nil }
            guard let quality = Double(pair[1].trimmingCharacters(in: .whitespaces)), (0...1).contains(quality) else { return 0 }
            return quality
        }
        return 1
    }

    /// `text` cut at each `separator` outside a quoted string (in which `\` escapes a character).
    private static func split(_ text: Substring, at separator: Character) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex, quoted = false, escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted && character == separator {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        pieces.append(text[start...])
        return pieces
    }
}
