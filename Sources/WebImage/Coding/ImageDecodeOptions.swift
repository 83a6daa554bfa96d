/// How a coder turns bytes into an ``Image``: size limits, thumbnails, frames and colour.
///
/// The defaults decode the whole image at full size, all frames, converted to sRGB through an
/// embedded ICC profile, and refuse anything over 100 megapixels (a decompression bomb gets an
/// error, not an out-of-memory kill).
public struct ImageDecodeOptions: Sendable, Hashable {
    /// The ``Image/scale`` to give the result (SDWebImage's `imageScaleFactor`); 1 by default.
    public var scaleFactor: Double
    /// Decode a thumbnail no larger than this (SDWebImage's `imageThumbnailPixelSize`).
    /// Never upscales. JPEG and WebP decode straight to a reduced size, so a small thumbnail
    /// of a large photo never holds the full-size pixels.
    public var thumbnailPixelSize: PixelSize?
    /// With a thumbnail size: keep the aspect ratio (fit inside the box) rather than stretch.
    public var preserveAspectRatio: Bool
    /// Shrink, keeping the aspect ratio, until all frames fit in this many bytes of RGBA8
    /// (SDWebImage's `scaleDownLargeImages` / `imageScaleDownLimitBytes`).
    public var scaleDownLimitBytes: Int?
    /// Decode only the first frame of an animation (SDWebImage's `decodeFirstFrameOnly`).
    public var firstFrameOnly: Bool
    /// The most pixels a decode may allocate for one frame; larger images fail with
    /// ``ImageCodingError/tooManyPixels(width:height:limit:)``.
    public var maxPixels: Int
    /// The most frames an animation may have; one with more fails with
    /// ``ImageCodingError/tooManyFrames(count:limit:)`` before any frame is decoded. Nil, the
    /// default, sets no limit; ``firstFrameOnly`` decodes one frame whatever the count.
    public var maxFrameCount: Int?
    /// The most pixels the source itself may declare, checked from its header before a pixel is
    /// decoded and whatever size it is decoded at (``maxPixels`` counts the decoded size, which
    /// a thumbnail shrinks): a still image's size, an animation's canvas times the frames it
    /// decodes. Fails with ``ImageCodingError/tooManySourcePixels(width:height:frames:limit:)``.
    /// Nil, the default, checks nothing beyond ``maxPixels``. An image server sets it, as
    /// imgproxy's `IMGPROXY_MAX_SRC_RESOLUTION` counts the source, not what it shrinks to.
    public var maxSourcePixels: Int?
    /// With ``maxSourcePixels``: the most pixels one frame of an animation may declare, checked
    /// instead of its frames together (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`);
    /// nil counts every frame decoded.
    public var maxAnimationFramePixels: Int?
    /// What to do with an embedded ICC profile: convert the pixels to sRGB (the default) or
    /// keep them and carry the profile in ``Image/colorProfile``.
    public var colorManagement: ColorManagement
    /// Decode the file's own embedded thumbnail (the largest, when it has several) instead of
    /// its main image, whatever its size, when it has one (imgproxy's `enforce_thumbnail`): a
    /// camera's small preview for the cost of decoding it alone. The thumbnail then stands for
    /// the image, and ``thumbnailPixelSize`` applies to it. HEIC and HEIF thumbnail items here;
    /// other formats decode their main image. Off by default.
    public var embeddedThumbnail = false

    /// The default limit: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// Options with the given values; every argument has the default described on its property.
    public init(
        scaleFactor: Double = 1,
        thumbnailPixelSize: PixelSize? = nil,
        preserveAspectRatio: Bool = true,
        scaleDownLimitBytes: Int? = nil,
        firstFrameOnly: Bool = false,
        maxPixels: Int = ImageDecodeOptions.defaultMaxPixels,
        maxFrameCount: Int? = nil,
        maxSourcePixels: Int? = nil,
        maxAnimationFramePixels: Int? = nil,
        colorManagement: ColorManagement = .convertToSRGB
    ) {
        self.scaleFactor = scaleFactor
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.firstFrameOnly = firstFrameOnly
        self.maxPixels = maxPixels
        self.maxFrameCount = maxFrameCount
        self.maxSourcePixels = maxSourcePixels
        self.maxAnimationFramePixels = maxAnimationFramePixels
        self.colorManagement = colorManagement
    }

    /// Throws ``ImageCodingError/tooManySourcePixels(width:height:frames:limit:)`` when the
    /// source `header` describes declares more than ``maxSourcePixels`` (one frame of an
    /// animation more than ``maxAnimationFramePixels``, when set): the frames this decode would
    /// read, every one at the full canvas.
    public func checkSourceLimit(_ header: ImageHeader) throws(ImageCodingError) {
        guard let maxSourcePixels else { return }
        let size = header.pixelSize
        let frames = firstFrameOnly ? 1 : max(1, header.frameCount)
        let (limit, counted) = frames > 1 && maxAnimationFramePixels != nil
            ? (maxAnimationFramePixels ?? 0, 1) : (maxSourcePixels, frames)
        let area = size.width.multipliedReportingOverflow(by: size.height)
        let total = area.partialValue.multipliedReportingOverflow(by: counted)
        if area.overflow || total.overflow || total.partialValue > limit {
            throw .tooManySourcePixels(width: size.width, height: size.height, frames: counted, limit: limit)
        }
    }

    /// The size the decoded image should have, for a source of `size` with `frameCount` frames.
    ///
    /// Applies the thumbnail box, then the scale-down byte limit; never larger than `size`
    /// in either dimension and never smaller than 1 × 1.
    public func targetSize(for size: PixelSize, frameCount: Int = 1) -> PixelSize {
        guard size.width > 0, size.height > 0 else { return size }
        var target = size
        if let box = thumbnailPixelSize, box.width > 0, box.height > 0 {
            if preserveAspectRatio {
                let ratio = min(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
                if ratio < 1 { target = size.scaled(by: ratio) }
            } else {
                target = PixelSize(width: min(box.width, size.width), height: min(box.height, size.height))
            }
        }
        if let limit = scaleDownLimitBytes, limit > 0 {
            let bytes = Double(target.area) * 4 * Double(max(frameCount, 1))
            if bytes > Double(limit) {
                target = target.scaled(by: (Double(limit) / bytes).squareRoot())
            }
        }
        return target
    }

    /// Throws ``ImageCodingError/tooManyPixels(width:height:limit:)`` when a frame of `size`
    /// would exceed ``maxPixels``.
    public func checkPixelLimit(_ size: PixelSize) throws(ImageCodingError) {
        if size.width <= 0 || size.height <= 0 {
            throw .corrupt(.undefined, "image has no pixels (\(size))")
        }
        if maxPixels > 0, size.width.multipliedReportingOverflow(by: size.height).overflow
            || size.area > maxPixels {
            throw .tooManyPixels(width: size.width, height: size.height, limit: maxPixels)
        }
    }

}
