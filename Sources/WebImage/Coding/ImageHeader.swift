import Foundation

/// What an image is, read from its header without decoding a pixel: how a tool describes an
/// image too large to decode (``ImageDecodeOptions/maxPixels``) or describes one quickly.
public struct ImageHeader: Sendable, Hashable {
    /// The format the bytes are in.
    public var format: ImageFormat
    /// The size in pixels after ``orientation`` is applied, as a decoded image would have it.
    public var pixelSize: PixelSize
    /// The EXIF orientation stored with the image.
    public var orientation: ImageOrientation
    /// The number of frames: 1 for a still image.
    public var frameCount: Int
    /// Times an animation plays (0 = forever); 1 for a still image, as ``Image/loopCount``.
    public var loopCount: Int
    /// Each frame's playback duration in seconds (under 11 ms counts as 100 ms); `[0]` for a
    /// still image, as ``Image/durations``.
    public var durations: [TimeInterval]
    /// The ICC profile the file embeds, nil without one (or when it is too damaged to read).
    public var colorProfile: ColorProfile?

    /// A header from its parts.
    public init(format: ImageFormat, pixelSize: PixelSize, orientation: ImageOrientation = .up,
                frameCount: Int = 1, loopCount: Int = 1, durations: [TimeInterval] = [0],
                colorProfile: ColorProfile? = nil) {
        self.format = format
        self.pixelSize = pixelSize
        self.orientation = orientation
        self.frameCount = frameCount
        self.loopCount = frameCount > 1 ? loopCount : 1
        self.durations = durations
        self.colorProfile = colorProfile
    }

    /// The header a frame reader knows: canvas, orientation, frames, loop count, durations,
    /// colour profile.
    public init(format: ImageFormat, reader: any AnimatedFrameReader) {
        let size = reader.canvasSize
        let upright = reader.orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
        let count = reader.frameCount
        self.init(format: format, pixelSize: upright, orientation: reader.orientation, frameCount: count,
                  loopCount: reader.loopCount,
                  durations: count > 1 ? (0..<count).map { ImageFrame.playbackDuration(seconds: reader.duration(at: $0)) } : [0],
                  colorProfile: reader.colorProfile)
    }
}
