import ArgumentParser
import Foundation
import WebImage

/// `webimage info`: what an image is, as one JSON object.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size (after EXIF orientation), frames, loop count and durations as JSON.",
        discussion: """
            Example:
              webimage info animation.gif
              {"durationsMs":[100,100],"format":"gif","frames":2,"height":48,"loopCount":0,"orientation":1,"width":72}
            """)

    @Argument(help: "An image file, or a file, http(s) or data URL.")
    var input: String

    func run() async throws {
        WebImageCommand.prepareCoders()
        try await CommandFailure.reporting {
            let image = try await InputImage.load(input)
            print(try ImageSummary(image).json())
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

    init(_ image: Image) {
        format = image.format.rawValue
        width = image.pixelWidth
        height = image.pixelHeight
        frames = image.frames.count
        loopCount = image.loopCount
        durationsMs = image.durations.map { Int(($0 * 1000).rounded()) }
        orientation = Int(image.orientation.rawValue)
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
