import Foundation

/// Turns encoded bytes into an ``Image`` and back (SDWebImage's `SDImageCoder`).
///
/// Coders are registered in ``ImageCoders``; the registry asks the most recently added coder
/// first, so a coder of yours can take over a format from ours.
public protocol ImageCoder: Sendable {
    /// Whether this coder can decode `data` (usually: the format detected from its bytes).
    func canDecode(_ data: Data) -> Bool
    /// Decodes `data`; throws ``ImageCodingError`` for bad input, never crashes.
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image
    /// Whether this coder can encode into `format`.
    func canEncode(_ format: ImageFormat) -> Bool
    /// Encodes `image` into `format`.
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data
}

/// A coder that can show a download in progress (SDWebImage's `SDProgressiveImageCoder`).
public protocol ProgressiveImageCoder: ImageCoder {
    /// Decodes the bytes received so far into a partial image of the full size: the rows or
    /// passes that have arrived. Returns `nil` while not even the header is complete.
    func decodePartial(_ data: Data, options: ImageDecodeOptions) -> Image?
}

/// A coder that reads an animation frame by frame (SDWebImage's `SDAnimatedImageCoder`).
public protocol AnimatedImageCoder: ImageCoder {
    /// Parses the container of `data` and returns a reader for its frames; throws if `data`
    /// is not an image this coder reads.
    func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader
}

/// Reads the frames of one animation, composited to full canvases, in any order.
///
/// A reader owns decoding state and is used from one task at a time; it is not `Sendable`.
public protocol AnimatedFrameReader: AnyObject {
    /// The canvas size every frame has, as stored (before ``orientation`` is applied).
    var canvasSize: PixelSize { get }
    /// The EXIF orientation the file declares; ``frame(at:)`` returns pixels as stored, and
    /// whoever shows them applies it. `.up` unless the format carries one.
    var orientation: ImageOrientation { get }
    /// The number of frames.
    var frameCount: Int { get }
    /// Plays: 0 = forever.
    var loopCount: Int { get }
    /// The display time of frame `index` in seconds, as the file states it (before the
    /// under-11 ms rule of ``ImageFrame/playbackDuration(seconds:)``).
    func duration(at index: Int) -> TimeInterval
    /// Frame `index` composited onto the canvas (disposal and blending of earlier frames applied),
    /// in sRGB unless the reader was made with ``ColorManagement/preserve``.
    func frame(at index: Int) throws -> PixelBuffer
    /// The ICC profile of the frames ``frame(at:)`` returns: the file's own when the reader
    /// keeps the stored colours (made with ``ColorManagement/preserve``), nil when they are sRGB.
    var colorProfile: ColorProfile? { get }
    /// Why the file's embedded profile is not used, when it is not (known once a frame is read).
    var colorProfileWarning: ColorProfileError? { get }
}

extension AnimatedFrameReader {
    /// `.up`: for formats without an orientation tag, such as GIF.
    public var orientation: ImageOrientation { .up }
    /// None: for formats without an embedded profile, such as GIF.
    public var colorProfile: ColorProfile? { nil }
    /// None: for formats without an embedded profile.
    public var colorProfileWarning: ColorProfileError? { nil }
}
