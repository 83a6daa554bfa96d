import Foundation

/// One full-canvas frame of an image: disposal and blending are already applied.
public struct ImageFrame: Sendable, Hashable {
    /// The frame's pixels, as large as the image's canvas.
    public var pixels: PixelBuffer
    /// How long the frame is shown, in seconds (0 for a still image).
    public var duration: TimeInterval

    /// A frame from its pixels and display time.
    public init(pixels: PixelBuffer, duration: TimeInterval = 0) {
        self.pixels = pixels
        self.duration = duration
    }

    /// A frame delay as browsers (and SDWebImage) play it: under 11 ms counts as 100 ms.
    public static func playbackDuration(seconds: TimeInterval) -> TimeInterval {
        seconds < 0.011 ? 0.1 : seconds
    }
}
