import Foundation

/// The frames of a decoded ``Image`` read as an animation's frames, so that an
/// ``AnimatedImage`` can play an image that is loaded already instead of decoding its bytes
/// again. The pixels are upright already, so the reader reports no orientation.
final class DecodedFrameReader: AnimatedFrameReader {
    private let image: Image

    init(_ image: Image) {
        self.image = image
    }

    var canvasSize: PixelSize { image.pixelSize }
    var frameCount: Int { image.frames.count }
    var loopCount: Int { image.loopCount }

    func duration(at index: Int) -> TimeInterval { image.frames[index].duration }

    func frame(at index: Int) throws -> PixelBuffer { image.frames[index].pixels }
}
