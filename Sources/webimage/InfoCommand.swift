import ArgumentParser
import Foundation
import WebImage

/// `webimage info`: what an image is, as one JSON object.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size (after EXIF orientation), frames, loop count, durations and ICC profile as JSON; with flags, its BlurHash, ThumbHash and colours.",
        discussion: """
            Only the header is read, so an image too large to decode (over 100 megapixels) is \
            described too. "iccProfile" names the embedded ICC profile (its description), \
            and is left out when there is none. --blurhash, --thumbhash and --colors decode \
            the image, shrunk on load, and compute those on a 100-pixel thumbnail (the \
            server's /info answers them too, with more options).
            Example:
              webimage info animation.gif
            prints, on one line:
              {"durationsMs":[100,100],"format":"gif","frames":2,"height":48,
               "loopCount":0,"orientation":1,"width":72}
            """)

    @Argument(help: "An image file, or a file, http(s) or data URL.")
    var input: String

    @Flag(help: "Add \"blurHash\": the image's BlurHash with 4 × 3 components (decodes the image).")
    var blurhash = false

    @Flag(help: "Add \"thumbHash\": the image's ThumbHash in base64, as ThumbHash's decoders take it (decodes the image).")
    var thumbhash = false

    @Flag(help: "Add \"averageColor\" and \"dominantColors\" (the vibrant and muted swatches found) as #RRGGBB (decodes the image).")
    var colors = false

    func run() async throws {
        WebImageCommand.prepareCoders()
        try await CommandFailure.reporting {
            let data = try await InputImage.data(input)
            var summary = ImageSummary(try ImageCoders.shared.header(of: data))
            if blurhash || thumbhash || colors {
                // A shrinking decode: the answers need a 100-pixel thumbnail, not the full image.
                let thumbnail = try ImageCoders.shared.analysisThumbnail(of: data)
                if blurhash { summary.blurHash = try BlurHash.encode(thumbnail, xComponents: 4, yComponents: 3) }
                if thumbhash { summary.thumbHash = Data(try ThumbHash.encode(thumbnail)).base64EncodedString() }
                if colors {
                    summary.averageColor = AverageColor.of(thumbnail).map(ImageSummary.hex)
                    summary.dominantColors = ImageSummary.swatches(DominantColors(thumbnail))
                }
            }
            print(try summary.json())
        }
    }
}

/// The facts `webimage info` prints, in SPEC §11's field names.
struct ImageSummary: Encodable {
    let format: String
    let width: Int
    let height: Int
    let frames: Int
    let loopCount: Int
    let durationsMs: [Int]
    let orientation: Int
    /// The embedded ICC profile's description; absent without a profile.
    let iccProfile: String?
    /// With `--blurhash`: the BlurHash, 4 × 3 components.
    var blurHash: String?
    /// With `--thumbhash`: the ThumbHash, base64.
    var thumbHash: String?
    /// With `--colors`: the average colour, `#RRGGBB`.
    var averageColor: String?
    /// With `--colors`: the dominant colours found, by swatch (`vibrant`, `lightMuted`, …), `#RRGGBB`.
    var dominantColors: [String: String]?

    init(_ header: ImageHeader) {
        format = header.format.rawValue
        width = header.pixelSize.width
        height = header.pixelSize.height
        frames = header.frameCount
        loopCount = header.loopCount
        durationsMs = header.durations.map { Int(($0 * 1000).rounded()) }
        orientation = Int(header.orientation.rawValue)
        iccProfile = header.colorProfile.map { $0.description ?? "untitled \($0.colorSpace) profile" }
    }

    /// `color` as `#RRGGBB`.
    static func hex(_ color: RGBA) -> String {
        "#" + [color.r, color.g, color.b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// The swatches of `colors` that were found, by name.
    static func swatches(_ colors: DominantColors) -> [String: String] {
        let named: [(String, RGBA?)] = [("vibrant", colors.vibrant), ("lightVibrant", colors.lightVibrant), ("darkVibrant", colors.darkVibrant),
                                        ("muted", colors.muted), ("lightMuted", colors.lightMuted), ("darkMuted", colors.darkMuted)]
        return Dictionary(uniqueKeysWithValues: named.compactMap { name, color in color.map { (name, hex($0)) } })
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
