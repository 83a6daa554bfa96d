import ArgumentParser
import Foundation
import WebImage

/// `webimage info`: what an image is, as one JSON object.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size (after EXIF orientation), frames, loop count, durations and ICC profile as JSON.",
        discussion: """
            Only the header is read, so an image too large to decode (over 100 megapixels) is \
            described too. "iccProfile" names the embedded ICC profile (its description), \
            and is left out when there is none.
            Example:
              webimage info animation.gif
            prints, on one line:
              {"durationsMs":[100,100],"format":"gif","frames":2,"height":48,
               "loopCount":0,"orientation":1,"width":72}
            """)

    @Argument(help: "An image file, or a file, http(s) or data URL.")
    var input: String

    func run() async throws {
        WebImageCommand.prepareCoders()
        try await CommandFailure.reporting {
            let header = try ImageCoders.shared.header(of: try await InputImage.data(input))
            print(try ImageSummary(header).json())
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

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
