import Foundation

/// A decoded image: upright RGBA8 pixels, one frame or many, with what is known of its source.
///
/// `Image` is a value: copying it shares the pixel storage until one copy changes it. Pixels
/// are non-premultiplied RGBA8 (see ``PixelBuffer``). An animated image holds every frame
/// composited to a full canvas; ``memoryCost`` counts the bytes of all of them.
public struct Image: Sendable, Hashable {
    /// The frames, at least one. A still image has exactly one.
    public var frames: [ImageFrame] {
        get { storage.frames }
        _modify { yield &uniqueStorage().frames }
    }
    /// Pixels per point: 2 for an `@2x` resource, as SDWebImage's `scale`.
    public var scale: Double {
        get { storage.scale }
        _modify { yield &uniqueStorage().scale }
    }
    /// The format the image was decoded from (`.undefined` for one made in memory).
    public var format: ImageFormat {
        get { storage.format }
        _modify { yield &uniqueStorage().format }
    }
    /// The EXIF orientation the source declared; the pixels have it applied already.
    public var orientation: ImageOrientation {
        get { storage.orientation }
        _modify { yield &uniqueStorage().orientation }
    }
    /// How many times an animation plays: 0 means forever. 1 for a still image.
    public var loopCount: Int {
        get { storage.loopCount }
        _modify { yield &uniqueStorage().loopCount }
    }
    /// Whether this is a partial image from a download still in progress.
    public var isIncomplete: Bool {
        get { storage.isIncomplete }
        _modify { yield &uniqueStorage().isIncomplete }
    }
    /// The ICC profile of the pixels; nil when they are sRGB, which is what decoding gives by
    /// default (an embedded profile is converted to sRGB, see ``ColorManagement``). Set when
    /// decoding with ``ColorManagement/preserve`` kept a file's own colours: encoders then embed
    /// it again (JPEG `APP2`, PNG `iCCP`, WebP `ICCP`), so the colours survive a re-encode.
    public var colorProfile: ColorProfile? {
        get { storage.colorProfile }
        _modify { yield &uniqueStorage().colorProfile }
    }
    /// Why the file's embedded ICC profile was not used, when it was not: the decode went on
    /// with the pixels as stored (a damaged profile, or one that does not fit the pixels).
    public var colorProfileWarning: ColorProfileError? {
        get { storage.colorProfileWarning }
        _modify { yield &uniqueStorage().colorProfileWarning }
    }

    /// Every property, in one object shared by the copies of an image until one of them
    /// changes: an image is copied on every cache hit and into every result, and a copy then
    /// costs one reference count instead of one per frame list, profile and warning.
    private var storage: Storage

    /// The storage, copied first when another image shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        return storage
    }

    /// The image's properties. Sendable although mutable: an image changes its storage only
    /// when no other image holds it (``uniqueStorage()``), so no storage is written while shared.
    private final class Storage: @unchecked Sendable {
        var frames: [ImageFrame]
        var scale: Double
        var format: ImageFormat
        var orientation: ImageOrientation
        var loopCount: Int
        var isIncomplete: Bool
        var colorProfile: ColorProfile?
        var colorProfileWarning: ColorProfileError?

        init(frames: [ImageFrame], scale: Double, format: ImageFormat, orientation: ImageOrientation, loopCount: Int,
             isIncomplete: Bool, colorProfile: ColorProfile?, colorProfileWarning: ColorProfileError?) {
            self.frames = frames
            self.scale = scale
            self.format = format
            self.orientation = orientation
            self.loopCount = loopCount
            self.isIncomplete = isIncomplete
            self.colorProfile = colorProfile
            self.colorProfileWarning = colorProfileWarning
        }

        convenience init(copying other: Storage) {
            self.init(frames: other.frames, scale: other.scale, format: other.format, orientation: other.orientation,
                      loopCount: other.loopCount, isIncomplete: other.isIncomplete, colorProfile: other.colorProfile,
                      colorProfileWarning: other.colorProfileWarning)
        }
    }

    /// An image from its frames and metadata.
    public init(
        frames: [ImageFrame], scale: Double = 1, format: ImageFormat = .undefined,
        orientation: ImageOrientation = .up, loopCount: Int = 0, isIncomplete: Bool = false,
        colorProfile: ColorProfile? = nil
    ) {
        precondition(!frames.isEmpty, "an Image has at least one frame")
        storage = Storage(frames: frames, scale: scale, format: format, orientation: orientation,
                          loopCount: frames.count > 1 ? loopCount : 1, isIncomplete: isIncomplete,
                          colorProfile: colorProfile, colorProfileWarning: nil)
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

    /// Whether two images have the same frames and metadata.
    public static func == (lhs: Image, rhs: Image) -> Bool {
        let left = lhs.storage, right = rhs.storage
        return left === right
            || (left.frames == right.frames && left.scale == right.scale && left.format == right.format
                && left.orientation == right.orientation && left.loopCount == right.loopCount
                && left.isIncomplete == right.isIncomplete && left.colorProfile == right.colorProfile
                && left.colorProfileWarning == right.colorProfileWarning)
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.frames)
        hasher.combine(storage.scale)
        hasher.combine(storage.format)
        hasher.combine(storage.orientation)
        hasher.combine(storage.loopCount)
        hasher.combine(storage.isIncomplete)
        hasher.combine(storage.colorProfile)
        hasher.combine(storage.colorProfileWarning)
    }
}
