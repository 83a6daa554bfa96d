/// A nine-patch image (Android's `.9.png`, the frame of thumbor's `frame` filter): a picture
/// inside a one-pixel border of markers. Opaque black pixels on the top and left edges mark the
/// columns and rows that stretch; those on the bottom and right edges mark the content area.
/// Drawn at any size, the parts between stretching runs (corners, ornaments) keep their size.
public struct NinePatch: Sendable, Hashable {
    /// How far the content area lies inside the picture's edges, in pixels.
    public struct Insets: Sendable, Hashable {
        /// Pixels above the content area.
        public var top: Int
        /// Pixels right of it.
        public var right: Int
        /// Pixels below it.
        public var bottom: Int
        /// Pixels left of it.
        public var left: Int

        /// Insets of the given sides in pixels.
        public init(top: Int, right: Int, bottom: Int, left: Int) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
        }
    }

    /// The picture inside the marker border.
    public let picture: PixelBuffer
    /// Whether each column of ``picture`` stretches.
    public let stretchyColumns: [Bool]
    /// Whether each row of ``picture`` stretches.
    public let stretchyRows: [Bool]
    /// Where the content goes: all zero when the bottom and right edges mark nothing.
    public let contentInsets: Insets

    /// The nine-patch `pixels` write, or nil when they are too small to hold a border and a
    /// picture (3 × 3 at least).
    public init?(_ pixels: PixelBuffer) {
        guard pixels.width >= 3, pixels.height >= 3 else { return nil }
        let inner = 1..<(pixels.width - 1), innerRows = 1..<(pixels.height - 1)
        let marked = { (x: Int, y: Int) in pixels[x, y] == RGBA(r: 0, g: 0, b: 0, a: 255) }
        picture = pixels.cropped(to: PixelRect(x: 1, y: 1, width: pixels.width - 2, height: pixels.height - 2))
        stretchyColumns = inner.map { marked($0, 0) }
        stretchyRows = innerRows.map { marked(0, $0) }
        let contentColumns = inner.map { marked($0, pixels.height - 1) }
        let contentRows = innerRows.map { marked(pixels.width - 1, $0) }
        contentInsets = Insets(top: contentRows.firstIndex(of: true) ?? 0,
                               right: contentColumns.lastIndex(of: true).map { contentColumns.count - 1 - $0 } ?? 0,
                               bottom: contentRows.lastIndex(of: true).map { contentRows.count - 1 - $0 } ?? 0,
                               left: contentColumns.firstIndex(of: true) ?? 0)
    }

    /// The picture drawn at `size`: fixed runs at their own size, stretching runs sharing what
    /// is left in proportion to their lengths, each resampled bilinearly on premultiplied colour.
    /// Where the fixed runs alone are longer than `size`, they are cut at its edge; where
    /// nothing stretches, the space past the picture stays transparent.
    public func drawn(as size: PixelSize) -> PixelBuffer {
        let columns = Self.samples(stretchy: stretchyColumns, across: size.width)
        let rows = Self.samples(stretchy: stretchyRows, across: size.height)
        var canvas = PixelBuffer(width: size.width, height: size.height)
        let pictureWidth = picture.width, canvasWidth = size.width
        picture.bytes.withUnsafeBufferPointer { source in
            canvas.bytes.withUnsafeMutableBufferPointer { destination in
                for (y, row) in rows.enumerated() {
                    for (x, column) in columns.enumerated() {
                        var alpha = 0.0, colour = (0.0, 0.0, 0.0)
                        for tap in 0..<4 {
                            let lowerRow = tap < 2, lowerColumn = tap % 2 == 0
                            let weight = (lowerRow ? 1 - row.weight : row.weight) * (lowerColumn ? 1 - column.weight : column.weight)
                            guard weight > 0 else { continue }
                            let i = ((lowerRow ? row.lower : row.upper) * pictureWidth + (lowerColumn ? column.lower : column.upper)) * 4
                            let covered = weight * Double(source[i + 3])
                            alpha += covered
                            colour.0 += covered * Double(source[i])
                            colour.1 += covered * Double(source[i + 1])
                            colour.2 += covered * Double(source[i + 2])
                        }
                        guard alpha > 0 else { continue }
                        let o = (y * canvasWidth + x) * 4
                        destination[o] = UInt8(min(255, (colour.0 / alpha).rounded()))
                        destination[o + 1] = UInt8(min(255, (colour.1 / alpha).rounded()))
                        destination[o + 2] = UInt8(min(255, (colour.2 / alpha).rounded()))
                        destination[o + 3] = UInt8(min(255, alpha.rounded()))
                    }
                }
            }
        }
        return canvas
    }

    /// Where each pixel along a side drawn `length` long reads the picture: two neighbouring
    /// picture pixels and the weight of the second, pixel centres aligned within each run.
    private static func samples(stretchy: [Bool], across length: Int) -> [(lower: Int, upper: Int, weight: Double)] {
        var runs: [(start: Int, count: Int, stretches: Bool)] = []
        for (index, stretches) in stretchy.enumerated() {
            if let last = runs.last, last.stretches == stretches {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((index, 1, stretches))
            }
        }
        let stretching = stretchy.filter { $0 }.count
        let available = max(0, length - (stretchy.count - stretching))
        var samples: [(lower: Int, upper: Int, weight: Double)] = []
        // Stretched runs end where their share of the stretch so far, rounded, ends: the shares
        // add up to exactly what is available.
        var stretchedSoFar = 0, drawnSoFar = 0
        for run in runs {
            var drawn = run.count
            if run.stretches {
                stretchedSoFar += run.count
                let end = Int((Double(stretchedSoFar) * Double(available) / Double(stretching)).rounded())
                drawn = end - drawnSoFar
                drawnSoFar = end
            }
            for step in 0..<drawn where samples.count < length {
                let position = min(max((Double(step) + 0.5) * Double(run.count) / Double(drawn) - 0.5, 0), Double(run.count - 1))
                let lower = Int(position)
                samples.append((run.start + lower, run.start + min(lower + 1, run.count - 1), position - Double(lower)))
            }
        }
        return samples
    }
}
