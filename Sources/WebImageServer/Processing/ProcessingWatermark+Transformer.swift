import WebImage

extension ProcessingWatermark {
    /// The transformer laying `mark` over a result of `size` as imgproxy lays its watermark:
    /// with a scale, fitted (up or down) inside the result's sides times the scale, each rounded
    /// half to even (a scale above 1 counts as 1: the mark never outgrows the result); tiled
    /// with the offsets as the space between copies, or placed by the gravity and its offsets
    /// (times `dpr` from 1 up, fractions of the side below 1), allowed past the edges. Without a
    /// scale, `style`'s box sizes the mark; then its turn and its shadow apply.
    func transformer(laying mark: PixelBuffer, on size: PixelSize, dpr: Double, style: WatermarkStyle = WatermarkStyle())
        -> WatermarkTransformer {
        var scaled = scale > 0 ? scaledMark(mark, on: size) : styledSize(mark, style, on: size)
        if style.rotation != 0 {
            scaled = RotationTransformer(radians: -style.rotation * .pi / 180).transform(Image(pixels: scaled), forKey: "")?.pixels ?? scaled
        }
        if style.shadowSigma > 0 {
            scaled = ShadowTransformer(sigma: style.shadowSigma).transform(Image(pixels: scaled), forKey: "")?.pixels ?? scaled
        }
        let placement: WatermarkPlacement
        if tiled {
            placement = .tiled(spacingX: Gravity.offset(gravity.x, side: size.width, dpr: dpr),
                               spacingY: Gravity.offset(gravity.y, side: size.height, dpr: dpr))
        } else {
            let origin = gravity.overlayOrigin(of: scaled.size, in: size, dpr: dpr)
            placement = .at(x: origin.x, y: origin.y)
        }
        return WatermarkTransformer(mark: scaled, placement: placement, opacity: opacity)
    }

    /// `mark` fitted (up or down) inside `style`'s box, a side of 0 following the other, but
    /// never to more pixels than a result of `size` has (what is past its edges is cut off, and
    /// the bound keeps a tiny mark from being enlarged to gigapixels); as it is without a box.
    private func styledSize(_ mark: PixelBuffer, _ style: WatermarkStyle, on size: PixelSize) -> PixelBuffer {
        guard style.width > 0 || style.height > 0, mark.width > 0, mark.height > 0 else { return mark }
        let factorX = style.width > 0 ? Double(style.width) / Double(mark.width) : .infinity
        let factorY = style.height > 0 ? Double(style.height) / Double(mark.height) : .infinity
        let bound = (Double(max(size.area, 1)) / Double(mark.width * mark.height)).squareRoot()
        let factor = min(factorX, factorY, bound)
        let target = PixelSize(width: max(1, Int((Double(mark.width) * factor).rounded())),
                               height: max(1, Int((Double(mark.height) * factor).rounded())))
        return target == mark.size ? mark : Resampler.resize(mark, to: target)
    }

    /// `mark` fitted inside the result's sides times ``scale``, or as it is without a scale.
    private func scaledMark(_ mark: PixelBuffer, on size: PixelSize) -> PixelBuffer {
        guard scale > 0, mark.width > 0, mark.height > 0 else { return mark }
        let fraction = min(scale, 1)
        let boxWidth = max(Gravity.even(Double(size.width) * fraction), 1)
        let boxHeight = max(Gravity.even(Double(size.height) * fraction), 1)
        let factor = min(Double(boxWidth) / Double(mark.width), Double(boxHeight) / Double(mark.height))
        let target = PixelSize(width: min(boxWidth, max(1, Gravity.even(Double(mark.width) * factor))),
                               height: min(boxHeight, max(1, Gravity.even(Double(mark.height) * factor))))
        guard target != mark.size else { return mark }
        return Resampler.resize(mark, to: target)
    }
}
