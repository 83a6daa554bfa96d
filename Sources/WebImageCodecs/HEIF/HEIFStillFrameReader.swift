import Foundation
import WebImage

/// The primary still of a HEIF file as a one-frame animation, decoded already: what
/// ``HEIFCoder/makeFrameReader(for:options:)`` gives for a file without an image sequence,
/// so that a player shows any HEIF image.
final class HEIFStillFrameReader: AnimatedFrameReader {
    private let image: Image

    init(_ image: Image) {
        self.image = image
    }

    var canvasSize: PixelSize { image.pixelSize }
    let frameCount = 1
    let loopCount = 1
    var colorProfile: ColorProfile? { image.colorProfile }
    var colorProfileWarning: ColorProfileError? { image.colorProfileWarning }

    func duration(at index: Int) -> TimeInterval { 0 }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index == 0 else { throw ImageCodingError.corrupt(image.format, "no frame \(index) in a still image") }
        return image.pixels
    }
}
