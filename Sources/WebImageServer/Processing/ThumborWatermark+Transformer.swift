import Foundation
import WebImage

extension ThumborWatermark {
    /// The transformer laying `mark` over an image of `size` as thumbor's `watermark` filter
    /// does (thumbor/filters/watermark.py): the transparency taken off every alpha of the mark,
    /// the mark fitted within the ratios of the image when given, then placed along each side by
    /// its ``ThumborWatermarkPosition``, `repeat` spreading thumbor's count of copies.
    func transformer(laying mark: PixelBuffer, on size: PixelSize) -> WatermarkTransformer {
        let faded = Self.fading(mark, by: transparency)
        let sized = resized(faded, on: size)
        let markSize = sized.size
        var columns = Self.copies(of: markSize.width, along: size.width, at: x)
        var rows = Self.copies(of: markSize.height, along: size.height, at: y)
        // Repeated both ways into more than a hundred copies, thumbor keeps six a side at most,
        // spread over the whole side.
        if case .repeat = x, case .repeat = y, columns.count * rows.count > 100 {
            columns = Self.spread(min(6, columns.count), size.width - min(6, columns.count) * markSize.width, mark: markSize.width)
            rows = Self.spread(min(6, rows.count), size.height - min(6, rows.count) * markSize.height, mark: markSize.height)
        }
        return WatermarkTransformer(mark: sized, placement: .grid(x: columns.first, y: rows.first, stepX: columns.step,
                                                                  stepY: rows.step, columns: columns.count, rows: rows.count))
    }

    /// `mark` with `transparency` percent of 255 (in whole levels, as thumbor's `_alpha.c`
    /// counts) taken off every alpha, down to 0.
    private static func fading(_ mark: PixelBuffer, by transparency: Int) -> PixelBuffer {
        let delta = 255 * transparency / 100
        guard delta > 0 else { return mark }
        var faded = mark
        faded.bytes.withUnsafeMutableBufferPointer { bytes in
            for alpha in stride(from: 3, to: bytes.count, by: 4) {
                bytes[alpha] = UInt8(max(0, Int(bytes[alpha]) - delta))
            }
        }
        return faded
    }

    /// `mark` fitted within the image's sides times the ratios (one ratio bounds that side and
    /// the other follows the mark's aspect), sides rounded half to even as Python rounds; as it
    /// is without ratios.
    private func resized(_ mark: PixelBuffer, on size: PixelSize) -> PixelBuffer {
        guard widthRatio != nil || heightRatio != nil, mark.width > 0, mark.height > 0 else { return mark }
        let width = Double(mark.width), height = Double(mark.height)
        var maxWidth = widthRatio.map { Double(size.width) * $0 }
        var maxHeight = heightRatio.map { Double(size.height) * $0 }
        if maxWidth == nil, let maxHeight { maxWidth = width * maxHeight / height }
        if maxHeight == nil, let maxWidth { maxHeight = height * maxWidth / width }
        guard let maxWidth, let maxHeight, maxWidth > 0, maxHeight > 0 else { return mark }
        let target: (Double, Double) = width / maxWidth >= height / maxHeight
            ? (maxWidth, height * maxWidth / width) : (width * maxHeight / height, maxHeight)
        let sized = PixelSize(width: target.0, height: target.1, rounding: .toNearestOrEven)
        return sized == mark.size ? mark : Resampler.resize(mark, to: sized)
    }

    /// Where copies of a mark `mark` pixels long go along a side of `length`: one where
    /// `position` says, or thumbor's `repeat` count (whole marks that fit, or as many as it
    /// takes to cover the side with 10 pixels to spare when fewer than two fit).
    private static func copies(of mark: Int, along length: Int, at position: ThumborWatermarkPosition)
        -> (first: Int, step: Int, count: Int) {
        switch position {
        case .repeat:
            guard length >= 2 * mark else { return spread((length + mark - 1) / mark, 10, mark: mark) }
            return spread(length / mark, length % mark, mark: mark)
        case .center:
            // Python's int() of a half: towards zero.
            return (Int(Double(length - mark) / 2), 1, 1)
        case let .pixels(value, fromEnd):
            return (fromEnd ? length - mark + value : value, 1, 1)
        case let .percent(value, fromEnd):
            let pixels = Int((Double(length) * Double(value) / 100 + 1e-5).rounded(.toNearestOrEven))
            return copies(of: mark, along: length, at: .pixels(fromEnd ? -pixels : pixels, fromEnd: fromEnd))
        }
    }

    /// `count` copies from 0, the `spare` pixels shared between them (floored, as Python's `//`).
    private static func spread(_ count: Int, _ spare: Int, mark: Int) -> (first: Int, step: Int, count: Int) {
        let gaps = max(count, 2) - 1
        let space = spare >= 0 ? spare / gaps : -((-spare + gaps - 1) / gaps)
        return (0, space + mark, count)
    }
}
