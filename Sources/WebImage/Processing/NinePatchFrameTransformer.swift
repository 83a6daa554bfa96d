/// Frames every frame with a ``NinePatch``, as thumbor's `frame` filter does: the frame is laid
/// on a canvas of `fill` grown by the patch's content insets, so that it sits in the patch's
/// content area, and the patch is drawn over the whole canvas. With an opaque fill (white, as
/// thumbor's), the result is opaque.
public struct NinePatchFrameTransformer: ImageTransformer {
    /// The frame drawn around and over each frame.
    public let patch: NinePatch
    /// The colour under the image and the patch.
    public let fill: RGBA

    /// A transformer framing with `patch` over `fill`.
    public init(patch: NinePatch, fill: RGBA = .white) {
        self.patch = patch
        self.fill = fill
    }

    /// `ninePatchFrame(<digest>,<w>x<h>,<fill>)`: the digest of the patch's picture changes
    /// when the patch does.
    public var key: String {
        let picture = patch.picture
        return "ninePatchFrame(\(String(picture.contentDigest, radix: 16)),\(picture.width)x\(picture.height),"
            + "\(TransformerKey.colour(fill)))"
    }

    /// The size a frame of `size` has once framed: grown by the content insets.
    public func framedSize(of size: PixelSize) -> PixelSize {
        let insets = patch.contentInsets
        return PixelSize(width: size.width + insets.left + insets.right, height: size.height + insets.top + insets.bottom)
    }

    /// Every frame framed; nil for an image without pixels.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(framed)
    }

    /// `frame` framed.
    public func framed(_ frame: PixelBuffer) -> PixelBuffer {
        let size = framedSize(of: frame.size)
        var canvas = PixelBuffer(width: size.width, height: size.height, fill: fill)
        canvas.composite(frame, at: (patch.contentInsets.left, patch.contentInsets.top))
        canvas.composite(patch.drawn(as: size), at: (0, 0))
        return canvas
    }
}

extension ImageTransformer where Self == NinePatchFrameTransformer {
    /// Frames the image with `patch` over `fill` (thumbor's `frame` filter).
    public static func ninePatchFrame(_ patch: NinePatch, fill: RGBA = .white) -> NinePatchFrameTransformer {
        NinePatchFrameTransformer(patch: patch, fill: fill)
    }
}
