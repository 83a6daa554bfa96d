/// Blurs areas of every frame with a Gaussian and leaves the rest as it is (imgproxy's
/// `blur_areas`: faces, number plates, anything to hide).
///
/// Each area is blurred with the pixels around it weighing in, as a blur of the whole frame
/// would have them, so that its edge shows no seam; overlapping areas are blurred once.
public struct AreaBlurTransformer: ImageTransformer, Hashable {
    /// The Gaussian's standard deviation in pixels.
    public let sigma: Double
    /// The areas blurred, in the frame's pixels; parts outside the frame are ignored.
    public let areas: [PixelRect]

    /// A blur of `sigma` pixels over `areas` (a sigma that is not finite or below 0 is 0, above `ProgressiveBlurTransformer.maxSigma` that).
    public init(sigma: Double, areas: [PixelRect]) {
        self.sigma = sigma.isFinite ? min(max(0, sigma), ProgressiveBlurTransformer.maxSigma) : 0
        self.areas = areas
    }

    /// `blurAreas(4,x.y.w.h,…)`.
    public var key: String {
        "blurAreas(" + ([TransformerKey.number(sigma)] + areas.map { "\($0.x).\($0.y).\($0.width).\($0.height)" })
            .joined(separator: ",") + ")"
    }

    /// Every frame with its areas blurred; nil when nothing would change.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard sigma >= 0.1, image.pixelWidth > 0, image.pixelHeight > 0,
              areas.contains(where: { !clipped($0, to: image.pixels).isEmpty }) else { return nil }
        return image.mappingFrames(blurred)
    }

    private func clipped(_ area: PixelRect, to frame: PixelBuffer) -> PixelRect {
        area.intersection(PixelRect(x: 0, y: 0, width: frame.width, height: frame.height))
    }

    private func blurred(_ frame: PixelBuffer) -> PixelBuffer {
        var out = frame
        // The kernel reaches three sigmas each side: that much of the surroundings weighs in.
        let margin = Int((sigma * 3).rounded(.up))
        let blur = GaussianBlurTransformer(radius: sigma)
        for area in areas.map({ clipped($0, to: frame) }) where !area.isEmpty {
            let context = clipped(PixelRect(x: area.x - margin, y: area.y - margin,
                                            width: area.width + 2 * margin, height: area.height + 2 * margin), to: frame)
            let region = frame.cropped(to: context)
            guard let soft = blur.transform(Image(pixels: region), forKey: "")?.pixels else { continue }
            out.replace(area, with: soft, from: (area.x - context.x, area.y - context.y))
        }
        return out
    }
}

extension PixelBuffer {
    /// Replaces the pixels of `area` with those of `source` from `origin` on (alpha included,
    /// not composited); `area` must lie inside both.
    mutating func replace(_ area: PixelRect, with source: PixelBuffer, from origin: (x: Int, y: Int)) {
        let rowBytes = area.width * 4, width = width
        source.bytes.withUnsafeBufferPointer { from in
            bytes.withUnsafeMutableBufferPointer { to in
                for row in 0..<area.height {
                    let read = ((origin.y + row) * source.width + origin.x) * 4
                    let write = ((area.y + row) * width + area.x) * 4
                    (to.baseAddress! + write).update(from: from.baseAddress! + read, count: rowBytes)
                }
            }
        }
    }
}

extension ImageTransformer where Self == AreaBlurTransformer {
    /// Blurs `areas` with a Gaussian of standard deviation `sigma` pixels.
    public static func blurAreas(_ areas: [PixelRect], sigma: Double) -> AreaBlurTransformer {
        AreaBlurTransformer(sigma: sigma, areas: areas)
    }
}
