/// Resizes every frame with the Lanczos ``Resampler`` (SDWebImage's
/// `SDImageResizingTransformer`).
///
/// Given both sides, the output is exactly that size and ``mode`` says how the image fits in;
/// given one side, the other follows the image's aspect ratio. A size in points is multiplied
/// by its scale, and the output image takes that scale.
public struct ResizingTransformer: ImageTransformer {
    /// The output width in pixels, or nil to follow the aspect ratio from ``height``.
    public let width: Int?
    /// The output height in pixels, or nil to follow the aspect ratio from ``width``.
    public let height: Int?
    /// How the image fits a target given by both sides.
    public let mode: ImageScaleMode
    /// The scale the output image gets (a size given in points), or nil to keep the input's.
    public let scale: Double?

    /// A resize to `width` and/or `height` pixels (sides under 1 count as 1). With neither,
    /// the transformer leaves images alone.
    public init(width: Int?, height: Int?, mode: ImageScaleMode = .fill, scale: Double? = nil) {
        self.width = width.map { max(1, $0) }
        self.height = height.map { max(1, $0) }
        self.mode = mode
        self.scale = scale
    }

    /// `resize(256x256,aspectFit)`, `resize(200w)`, `resize(100h)`; `,@2x` is added for a size in points.
    public var key: String {
        var key: String
        switch (width, height) {
        case let (w?, h?): key = "resize(\(w)x\(h),\(mode.rawValue)"
        case let (w?, nil): key = "resize(\(w)w"
        case let (nil, h?): key = "resize(\(h)h"
        case (nil, nil): key = "resize("
        }
        if let scale { key += ",@\(TransformerKey.number(scale))x" }
        return key + ")"
    }

    /// Every frame resized; nil for an image without pixels or a resize without a side.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        let source = image.pixelSize
        guard source.area > 0, width != nil || height != nil else { return nil }
        let target = targetSize(for: source)
        var output = image.mappingFrames { resize($0, to: target) }
        if let scale { output.scale = scale }
        return output
    }

    /// The output size for a `source` of that size.
    func targetSize(for source: PixelSize) -> PixelSize {
        let aspect = Double(source.width) / Double(source.height)
        switch (width, height) {
        case let (w?, h?): return PixelSize(width: w, height: h)
        case let (w?, nil): return PixelSize(width: w, height: PixelSize.side(Double(w) / aspect))
        case let (nil, h?): return PixelSize(width: PixelSize.side(Double(h) * aspect), height: h)
        case (nil, nil): return source
        }
    }

    private func resize(_ pixels: PixelBuffer, to target: PixelSize) -> PixelBuffer {
        guard width != nil && height != nil else { return Resampler.resize(pixels, to: target) }
        let sx = Double(target.width) / Double(pixels.width), sy = Double(target.height) / Double(pixels.height)
        switch mode {
        case .fill:
            return Resampler.resize(pixels, to: target)
        case .aspectFit:
            let s = min(sx, sy)
            let scaled = pixels.size.scaled(by: s)
            let fitted = PixelSize(width: min(target.width, scaled.width), height: min(target.height, scaled.height))
            return Resampler.resize(pixels, to: fitted).centred(in: target)
        case .aspectFill:
            return Resampler.resizeCentre(pixels, to: target)
        }
    }
}

extension ImageTransformer where Self == ResizingTransformer {
    /// Resizes to `width` × `height` pixels, fitting the image as `mode` says.
    public static func resize(width: Int, height: Int, mode: ImageScaleMode = .fill) -> ResizingTransformer {
        ResizingTransformer(width: width, height: height, mode: mode)
    }

    /// Resizes to `size` pixels, fitting the image as `mode` says.
    public static func resize(size: PixelSize, mode: ImageScaleMode = .fill) -> ResizingTransformer {
        ResizingTransformer(width: size.width, height: size.height, mode: mode)
    }

    /// Resizes to `width` pixels wide, the height following the aspect ratio.
    public static func resize(width: Int) -> ResizingTransformer {
        ResizingTransformer(width: width, height: nil)
    }

    /// Resizes to `height` pixels tall, the width following the aspect ratio.
    public static func resize(height: Int) -> ResizingTransformer {
        ResizingTransformer(width: nil, height: height)
    }

    /// Resizes to `width` × `height` points at `scale` pixels a point (rounded to whole
    /// pixels); the output image has that scale.
    public static func resize(width: Double, height: Double, scale: Double, mode: ImageScaleMode = .fill) -> ResizingTransformer {
        let size = PixelSize(width: width * scale, height: height * scale)
        return ResizingTransformer(width: size.width, height: size.height, mode: mode, scale: scale)
    }
}
