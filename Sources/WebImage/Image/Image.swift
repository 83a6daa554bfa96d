import Foundation

/// A decoded image: upright RGBA8 pixels, one frame or many, with what is known of its source.
///
/// `Image` is a value: copying it shares the pixel storage until one copy changes it. Pixels
/// are non-premultiplied RGBA8 (see ``PixelBuffer``). An animated image holds every frame
/// composited to a full canvas; ``memoryCost`` counts the bytes of all of them.
public struct Image: Sendable, Hashable {
    /// The frames, at least one. A still image has exactly one.
    public var frames: [ImageFrame]
    /// Pixels per point: 2 for an `@2x` resource, as SDWebImage's `scale`.
    public var scale: Double
    /// The format the image was decoded from (`.undefined` for one made in memory).
    public var format: ImageFormat
    /// The EXIF orientation the source declared; the pixels have it applied already.
    public var orientation: ImageOrientation
    /// How many times an animation plays: 0 means forever. 1 for a still image.
    public var loopCount: Int
    /// Whether this is a partial image from a download still in progress.
    public var isIncomplete: Bool
    /// The ICC profile of the pixels; nil when they are sRGB, which is what decoding gives by
    /// default (an embedded profile is converted to sRGB, see ``ColorManagement``). Set when
    /// decoding with ``ColorManagement/preserve`` kept a file's own colours: encoders then embed
    /// it again (JPEG `APP2`, PNG `iCCP`, WebP `ICCP`), so the colours survive a re-encode.
    public var colorProfile: ColorProfile?
    /// Why the file's embedded ICC profile was not used, when it was not: the decode went on
    /// with the pixels as stored (a damaged profile, or one that does not fit the pixels).
    public var colorProfileWarning: ColorProfileError?

    /// An image from its frames and metadata.
    public init(
        frames: [ImageFrame], scale: Double = 1, format: ImageFormat = .undefined,
        orientation: ImageOrientation = .up, loopCount: Int = 0, isIncomplete: Bool = false,
        colorProfile: ColorProfile? = nil
    ) {
        precondition(!frames.isEmpty, "an Image has at least one frame")
        self.frames = frames
        self.scale = scale
        self.format = format
        self.orientation = orientation
        self.loopCount = frames.count > 1 ? loopCount : 1
        self.isIncomplete = isIncomplete
        self.colorProfile = colorProfile
    }

    /// A still image from one buffer of pixels.
    public init(pixels: PixelBuffer, scale: Double = 1, format: ImageFormat = .undefined,
                orientation: ImageOrientation = .up, colorProfile: ColorProfile? = nil) {
        self.init(frames: [ImageFrame(pixels: pixels)], scale: scale, format: format, orientation: orientation,
                  colorProfile: colorProfile)
    }

    /// The first frame alone, as a still image (SDWebImage's `decodeFirstFrameOnly` answer for
    /// an animation); the image itself when it is a still.
    public var firstFrame: Image {
        guard isAnimated else { return self }
        var first = Image(pixels: pixels, scale: scale, format: format, orientation: orientation, colorProfile: colorProfile)
        first.colorProfileWarning = colorProfileWarning
        return first
    }

    /// The first frame's pixels: what a still view shows.
    public var pixels: PixelBuffer { frames[0].pixels }
    /// Width in pixels.
    public var pixelWidth: Int { frames[0].pixels.width }
    /// Height in pixels.
    public var pixelHeight: Int { frames[0].pixels.height }
    /// Width in points (pixels divided by ``scale``).
    public var width: Double { Double(pixelWidth) / scale }
    /// Height in points (pixels divided by ``scale``).
    public var height: Double { Double(pixelHeight) / scale }
    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// The frames' display times in seconds.
    public var durations: [TimeInterval] { frames.map(\.duration) }
    /// Bytes of decoded pixels over all frames: what the memory cache charges for this image.
    public var memoryCost: Int { frames.reduce(0) { $0 + $1.pixels.bytes.count } }
}
