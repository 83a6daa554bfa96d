extension Image {
    /// The frames in `range` (clamped to the frames there are) stacked top to bottom,
    /// left-aligned on transparency, as one still image with this image's metadata: imgproxy's
    /// `pages` for a still result of an animation or a document, or a contact strip.
    public func stackingFrames(_ range: Range<Int>) -> Image {
        let first = max(0, min(range.lowerBound, frames.count - 1))
        let chosen = frames[first..<max(first + 1, min(range.upperBound, frames.count))]
        var still = self
        let width = chosen.map(\.pixels.width).max() ?? 0, height = chosen.reduce(0) { $0 + $1.pixels.height }
        guard chosen.count > 1, width > 0, height > 0 else {
            still.frames = [ImageFrame(pixels: frames[first].pixels)]
            return still
        }
        var sheet = PixelBuffer(width: width, height: height)
        var top = 0
        sheet.bytes.withUnsafeMutableBufferPointer { sheet in
            for frame in chosen {
                let pixels = frame.pixels, rowBytes = pixels.width * 4
                pixels.bytes.withUnsafeBufferPointer { rows in
                    guard let source = rows.baseAddress, let target = sheet.baseAddress else { return }
                    for y in 0..<pixels.height {
                        (target + (top + y) * width * 4).update(from: source + y * rowBytes, count: rowBytes)
                    }
                }
                top += pixels.height
            }
        }
        still.frames = [ImageFrame(pixels: sheet)]
        return still
    }
}
