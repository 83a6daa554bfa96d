import WebImage

extension PixelBuffer {
    /// The bounding box `x,y,w,h` of the pixels that are exactly `colour`, and how many there
    /// are (`none` and 0 when there is none): where a test's mark landed, and whether it is whole.
    func box(of colour: RGBA) -> (box: String, count: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
        for y in 0..<height {
            for x in 0..<width where self[x, y] == colour {
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
                count += 1
            }
        }
        return count == 0 ? ("none", 0) : ("\(minX),\(minY),\(maxX - minX + 1),\(maxY - minY + 1)", count)
    }
}
