/// Finds where a crop of a given size keeps the most interesting part of an image: imgproxy's
/// smart gravity (`g:sm`) and thumbor's `smart/`, attention-based rather than by face detection.
///
/// The image is scored by a ``SaliencyMap`` (edges, skin tones, saturation on a copy at most
/// 256 cells on its longest side); the crop window, at the map's scale, is slid over every
/// position and the one whose cells sum highest wins. A summed-area table makes each position
/// cost four lookups, so the search is linear in the map's cells. Among equal sums the position
/// nearest the centre wins: a flat image is cropped at its centre.
public enum SmartCrop {
    /// The rectangle of `size` inside `pixels` that holds the most of their interest, clipped to
    /// them (a side as large as theirs or larger keeps the whole side).
    public static func region(of size: PixelSize, in pixels: PixelBuffer) -> PixelRect {
        region(of: size, in: SaliencyMap(pixels), imageSize: pixels.size)
    }

    /// The rectangle of `size` inside an image of `imageSize` that `map` (the image's scores)
    /// rates highest, clipped to the image.
    public static func region(of size: PixelSize, in map: SaliencyMap, imageSize: PixelSize) -> PixelRect {
        let width = min(max(size.width, 0), imageSize.width), height = min(max(size.height, 0), imageSize.height)
        guard map.width > 0, map.height > 0, width > 0, height > 0 else {
            return PixelRect(x: 0, y: 0, width: width, height: height)
        }
        let window = (width: min(PixelSize.side(Double(width) / map.cellWidth), map.width),
                      height: min(PixelSize.side(Double(height) / map.cellHeight), map.height))
        let best = bestWindow(window, in: map)
        let x = min(max(Int((Double(best.x) * map.cellWidth).rounded()), 0), imageSize.width - width)
        let y = min(max(Int((Double(best.y) * map.cellHeight).rounded()), 0), imageSize.height - height)
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// The top-left cell of the `window`-sized block of `map` with the highest sum, the most
    /// central one among equals. Scores are rounded to whole numbers, whose sums in `Double` are
    /// exact, so that equal blocks sum exactly equal.
    private static func bestWindow(_ window: (width: Int, height: Int), in map: SaliencyMap) -> (x: Int, y: Int) {
        let table = SummedAreaTable(width: map.width, height: map.height) { Double(map.scores[$0].rounded()) }
        let centre = (x: Double(map.width - window.width) / 2, y: Double(map.height - window.height) / 2)
        var best = (x: 0, y: 0), bestSum = -Double.infinity, bestDistance = Double.infinity
        for y in 0...(map.height - window.height) {
            for x in 0...(map.width - window.width) {
                let sum = table.sum(left: x, top: y, right: x + window.width, bottom: y + window.height)
                let distance = (Double(x) - centre.x) * (Double(x) - centre.x) + (Double(y) - centre.y) * (Double(y) - centre.y)
                if sum > bestSum || (sum == bestSum && distance < bestDistance) {
                    (best, bestSum, bestDistance) = ((x, y), sum, distance)
                }
            }
        }
        return best
    }
}
