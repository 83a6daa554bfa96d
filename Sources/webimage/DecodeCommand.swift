import ArgumentParser
import Foundation
import WebImage

/// `webimage decode`: one frame of an image, upright, written in the format of the output's
/// extension (an RGBA PNG for `.png`).
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Write one frame of an image as PNG, JPEG, WebP, GIF, AVIF or JPEG XL (EXIF orientation applied, colours in sRGB, not premultiplied).",
        discussion: """
            The output's extension chooses the format: .png or .apng (RGBA PNG), .jpg or \
            .jpeg, .webp, .gif, .avif, .jxl; any other extension is refused (exit status 64). \
            An embedded ICC profile converts the colours to sRGB, unless --keep-icc keeps them \
            and embeds the profile in the output (where the format has room for one). Bad input \
            prints one line on standard error and exits with status 1.
            Example:
              webimage decode animation.gif -o last.png --frame last
            """)

    @Argument(help: "An image file, or a file, http(s) or data URL.")
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the frame; its extension names the format.", valueName: "FILE"))
    var output: String

    @Option(help: "The frame to write: an index from 0, or 'last'.")
    var frame: FrameSelector = .index(0)

    @Flag(help: "Keep the colours as stored and embed the file's ICC profile in the output, instead of converting to sRGB.")
    var keepIcc = false

    func validate() throws {
        guard outputFormat != nil else {
            throw ValidationError("cannot tell the format of \(output) from its extension: use \(OutputFormat.knownExtensions)")
        }
    }

    private var outputFormat: OutputFormat? {
        OutputFormat(fileExtension: URL(fileURLWithPath: output).pathExtension)
    }

    func run() async throws {
        WebImageCommand.prepareCoders()
        try await CommandFailure.reporting {
            let image = try await InputImage.load(
                input, options: ImageDecodeOptions(colorManagement: keepIcc ? .preserve : .convertToSRGB))
            let index = frame.index(in: image.frames.count)
            guard image.frames.indices.contains(index) else {
                throw CommandFailure("frame \(index) does not exist: the image has \(image.frames.count) frame(s)")
            }
            let format = outputFormat?.imageFormat ?? .png
            let still = Image(pixels: image.frames[index].pixels, format: format, colorProfile: image.colorProfile)
            let bytes = try ImageCoders.shared.encode(still, as: format)
            do {
                try bytes.write(to: URL(fileURLWithPath: output))
            } catch {
                throw CommandFailure("cannot write \(output): \(SystemErrorText.describe(error))")
            }
        }
    }
}

/// A frame chosen on the command line: an index, or the last frame.
enum FrameSelector: ExpressibleByArgument, CustomStringConvertible {
    case index(Int)
    case last

    init?(argument: String) {
        if argument == "last" {
            self = .last
        } else if let index = Int(argument), index >= 0 {
            self = .index(index)
        } else {
            return nil
        }
    }

    /// `0`, `last`: as it is written on the command line (and shown as `--help`'s default).
    var description: String {
        switch self {
        case .index(let i): String(i)
        case .last: "last"
        }
    }

    var defaultValueDescription: String { description }

    func index(in count: Int) -> Int {
        switch self {
        case .index(let i): i
        case .last: count - 1
        }
    }
}
