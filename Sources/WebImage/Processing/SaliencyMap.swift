/// How much each part of an image draws the eye, scored on a small copy of it: the attention
/// measure behind ``SmartCrop`` (in the spirit of libvips' `smartcrop` with
/// `VIPS_INTERESTING_ATTENTION`, itself after smartcrop.js).
///
/// The image is first reduced to a copy whose longest side is at most ``defaultLongestSide``
/// cells, each cell the average of a few samples of the pixels it covers, so that the cost is
/// the same for a thumbnail and for 12 megapixels. Each cell then scores the sum of three cues:
/// - contrast: how far the luma of the cell and its 8 neighbours is from the luma around them
///   within a 32nd of the longest side (a difference of box blurs, near the Laplacian of a
///   Gaussian at the scale of the 32-pixel copy libvips scores): outlines and objects, while
///   the noise and fine texture a plain Laplacian would reward average out;
/// - skin: how close the cell's colour direction is to a skin tone (faces and people);
/// - saturation: the cell's chroma, max − min of R, G, B (colourful objects).
///
/// Dark cells score no skin or saturation. Transparent pixels count for nothing: a cell's colour
/// is its pixels' average weighted by alpha, its score is weighted by how opaque it is, and the
/// luma means weigh each cell by how opaque it is, so the outline where an image turns
/// transparent is no contrast (nor is a transparent area's hidden colour).
public struct SaliencyMap: Sendable, Hashable {
    /// The longest side of the scored copy unless told otherwise: enough to place a crop within
    /// half a percent of the image, little enough that 12 megapixels score in a few milliseconds.
    public static let defaultLongestSide = 256

    /// Columns of cells.
    public let width: Int
    /// Rows of cells.
    public let height: Int
    /// Source columns one cell covers (≥ 1).
    public let cellWidth: Double
    /// Source rows one cell covers (≥ 1).
    public let cellHeight: Double
    /// `width * height` scores, row by row, each ≥ 0; higher draws more attention.
    public let scores: [Float]

    /// The attention scores of `pixels` on a copy at most `longestSide` cells on its longest side
    /// (the pixels themselves when they are smaller). An empty buffer has an empty map.
    public init(_ pixels: PixelBuffer, longestSide: Int = SaliencyMap.defaultLongestSide) {
        let longest = max(pixels.width, pixels.height)
        let shrink = min(1, Double(max(longestSide, 1)) / Double(max(longest, 1)))
        width = pixels.width == 0 ? 0 : PixelSize.side(Double(pixels.width) * shrink)
        height = pixels.height == 0 ? 0 : PixelSize.side(Double(pixels.height) * shrink)
        cellWidth = width == 0 ? 1 : Double(pixels.width) / Double(width)
        cellHeight = height == 0 ? 1 : Double(pixels.height) / Double(height)
        let cells = Self.reduce(pixels, width: width, height: height)
        scores = Self.score(cells, width: width, height: height)
    }

    /// The score of cell (`x`, `y`).
    public subscript(x: Int, y: Int) -> Float { scores[y * width + x] }

    /// A reduced cell: its average colour weighted by alpha (0…255) and how opaque it is (0…1).
    private struct Cell {
        var r: Float = 0, g: Float = 0, b: Float = 0, coverage: Float = 0

        /// Rec. 601 luma of the colour.
        var luma: Float { 0.299 * r + 0.587 * g + 0.114 * b }
    }

    /// Samples per cell side at most: a cell averages up to 4 × 4 evenly spaced pixels of its area.
    private static let samplesPerSide = 4

    /// `pixels` averaged into `width` × `height` cells, sampling at most 4 × 4 pixels of each.
    private static func reduce(_ pixels: PixelBuffer, width: Int, height: Int) -> [Cell] {
        var cells = [Cell](repeating: Cell(), count: width * height)
        guard width > 0, height > 0 else { return cells }
        let rows = (0...height).map { $0 * pixels.height / height }
        let columns = (0...width).map { $0 * pixels.width / width }
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for cy in 0..<height {
                let top = rows[cy], bottom = max(rows[cy + 1], top + 1)
                let rowStep = (bottom - top + samplesPerSide - 1) / samplesPerSide
                for cx in 0..<width {
                    let left = columns[cx], right = max(columns[cx + 1], left + 1)
                    let columnStep = (right - left + samplesPerSide - 1) / samplesPerSide
                    var r = 0, g = 0, b = 0, a = 0, count = 0
                    for y in stride(from: top, to: bottom, by: rowStep) {
                        var i = (y * pixels.width + left) * 4
                        for _ in stride(from: left, to: right, by: columnStep) {
                            let alpha = Int(bytes[i + 3])
                            r += Int(bytes[i]) * alpha
                            g += Int(bytes[i + 1]) * alpha
                            b += Int(bytes[i + 2]) * alpha
                            a += alpha
                            count += 1
                            i += columnStep * 4
                        }
                    }
                    guard a > 0 else { continue }
                    let scale = 1 / Float(a)
                    cells[cy * width + cx] = Cell(r: Float(r) * scale, g: Float(g) * scale, b: Float(b) * scale,
                                                  coverage: Float(a) / (Float(count) * 255))
                }
            }
        }
        return cells
    }

    /// Luma below which a cell is too dark to count as skin or as saturated (about 5 %).
    private static let darkLuma: Float = 13
    /// The direction of a typical skin colour in RGB, unit length (smartcrop.js's skin point
    /// 0.78, 0.57, 0.44, normalised).
    private static let skin: (r: Float, g: Float, b: Float) = (0.735, 0.537, 0.414)
    /// The distance from the skin direction at which a colour stops scoring as skin; greys sit
    /// at 0.23, so they never do.
    private static let skinReach: Float = 0.15
    /// What each cue weighs in the sum: contrast twice (the cue every photo's subject has), skin
    /// fully, saturation half (a flat coloured backdrop should not outweigh a detailed subject).
    private static let weights: (contrast: Float, skin: Float, saturation: Float) = (2, 1, 0.5)

    /// Each cell's score: weighted contrast, skin and saturation, times its coverage.
    private static func score(_ cells: [Cell], width: Int, height: Int) -> [Float] {
        let luma = cells.map(\.luma)
        let table = (weighted: SummedAreaTable(width: width, height: height) { Double(luma[$0] * cells[$0].coverage) },
                     coverage: SummedAreaTable(width: width, height: height) { Double(cells[$0].coverage) })
        let surround = max(2, max(width, height) / 32)
        var scores = [Float](repeating: 0, count: cells.count)
        for y in 0..<height {
            for x in 0..<width {
                let cell = cells[y * width + x]
                guard cell.coverage > 0 else { continue }
                func mean(within radius: Int) -> Float {
                    let left = max(x - radius, 0), top = max(y - radius, 0)
                    let right = min(x + radius + 1, width), bottom = min(y + radius + 1, height)
                    let covered = table.coverage.sum(left: left, top: top, right: right, bottom: bottom)
                    return Float(table.weighted.sum(left: left, top: top, right: right, bottom: bottom) / covered)
                }
                var score = weights.contrast * abs(mean(within: 1) - mean(within: surround))
                if cell.luma > darkLuma {
                    score += weights.skin * skinScore(cell) + weights.saturation * (max(cell.r, cell.g, cell.b) - min(cell.r, cell.g, cell.b))
                }
                scores[y * width + x] = score * cell.coverage
            }
        }
        return scores
    }

    /// 0…255: 255 for a colour in exactly the skin direction, down to 0 at ``skinReach`` from it.
    private static func skinScore(_ cell: Cell) -> Float {
        let length = (cell.r * cell.r + cell.g * cell.g + cell.b * cell.b).squareRoot()
        guard length > 0 else { return 0 }
        let dr = cell.r / length - skin.r, dg = cell.g / length - skin.g, db = cell.b / length - skin.b
        let distance = (dr * dr + dg * dg + db * db).squareRoot()
        return max(0, 1 - distance / skinReach) * 255
    }
}
