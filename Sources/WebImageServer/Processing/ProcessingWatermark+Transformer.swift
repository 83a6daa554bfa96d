import WebImage

extension ProcessingWatermark {
    /// The transformer laying `mark` over a result of `size` as imgproxy lays its watermark:
    /// with a scale, fitted (up or down) inside the result's sides times the scale, each rounded
    /// half to even (a scale above 1 counts as 1: the mark never outgrows the result); tiled
    /// with the offsets as the space between copies, or placed by the gravity and its offsets
    /// (times `dpr` from 1 up, fractions of the side below 1), allowed past the edges.
    func transformer(laying mark: PixelBuffer, on size: PixelSize, dpr: Double) -> WatermarkTransformer {
        let scaled = scaledMark(mark, on: size)
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
