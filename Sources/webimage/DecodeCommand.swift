import ArgumentParser
import Foundation
import WebImage

/// `webimage decode`: one frame of an image, upright, as an RGBA PNG.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Write one frame of an image as an RGBA PNG (EXIF orientation applied, not premultiplied).",
        discussion: """
            Bad input prints one line on standard error and exits with status 1.
            Example:
              webimage decode animation.gif -o last.png --frame last
            """)

    @Argument(help: "An image file, or a file, http(s) or data URL.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    @Option(help: "The frame to write: an index from 0, or 'last'.")
    var frame: FrameSelector = .index(0)

    func run() async throws {
        WebImageCommand.prepareCoders()
        try await CommandFailure.reporting {
            let image = try await InputImage.load(input)
            let index = frame.index(in: image.frames.count)
            guard image.frames.indices.contains(index) else {
                throw CommandFailure("frame \(index) does not exist: the image has \(image.frames.count) frame(s)")
            }
            let still = Image(pixels: image.frames[index].pixels, format: .png)
            let png = try ImageCoders.shared.encode(still, as: .png)
            guard FileManager.default.createFile(atPath: output, contents: png) else {
                throw CommandFailure("cannot write \(output)")
            }
        }
    }
}

/// A frame chosen on the command line: an index, or the last frame.
enum FrameSelector: ExpressibleByArgument {
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

    func index(in count: Int) -> Int {
        switch self {
        case .index(let i): i
        case .last: count - 1
        }
    }
}
