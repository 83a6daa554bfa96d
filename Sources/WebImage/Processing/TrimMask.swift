/// Which pixels of a frame differ from a border colour, for ``TrimmingTransformer``: each
/// pixel flattened onto magenta, compared channel by channel, then smoothed by a 3 × 3 median
/// (a pixel is content when most of its neighbours inside the frame are).
struct TrimMask {
    /// 1 for content, 0 for border, row by row.
    private var content: [UInt8]
    private let width: Int, height: Int

    /// The mask of `pixels` against `colour` (when nil, the top left pixel's, or the bottom
    /// right one's when `fromBottomRight`) within `threshold`.
    init(_ pixels: PixelBuffer, colour: RGBA?, threshold: Double, fromBottomRight: Bool = false) {
        let width = pixels.width, height = pixels.height
        self.width = width
        self.height = height
        var raw = [UInt8](repeating: 0, count: width * height)
        let limit = Int(threshold.rounded(.up))
        pixels.bytes.withUnsafeBufferPointer { bytes in
            let corner = fromBottomRight ? (width * height - 1) * 4 : 0
            let border = colour.map { [Int($0.r), Int($0.g), Int($0.b)] } ?? (0..<3).map { Self.flattened(bytes, corner, $0) }
            for index in 0..<(width * height) {
                for channel in 0..<3 where abs(Self.flattened(bytes, index * 4, channel) - border[channel]) >= limit {
                    raw[index] = 1
                    break
                }
            }
        }
        content = Self.median(raw, width: width, height: height)
    }

    /// The smallest rectangle holding every content pixel, or nil when there is none.
    func contentBox() -> PixelRect? {
        var left = width, right = -1, top = height, bottom = -1
        for y in 0..<height {
            for x in 0..<width where content[y * width + x] == 1 {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        guard right >= 0 else { return nil }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// Channel `channel` of the pixel at `offset`, composited over magenta (255, 0, 255).
    private static func flattened(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ channel: Int) -> Int {
        let alpha = Int(bytes[offset + 3]), magenta = channel == 1 ? 0 : 255
        return (Int(bytes[offset + channel]) * alpha + magenta * (255 - alpha) + 127) / 255
    }

    /// 1 where more than half of the 3 × 3 neighbourhood (inside the frame) is 1.
    private static func median(_ mask: [UInt8], width: Int, height: Int) -> [UInt8] {
        // Each pixel's column of three (0…3), a byte a pixel: the mask of a large image stays small.
        var columns = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum: UInt8 = 0
                for row in max(0, y - 1)...min(height - 1, y + 1) { sum += mask[row * width + x] }
                columns[y * width + x] = sum
            }
        }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let rows = min(height - 1, y + 1) - max(0, y - 1) + 1
            for x in 0..<width {
                let first = max(0, x - 1), last = min(width - 1, x + 1)
                var sum = 0
                for column in first...last { sum += Int(columns[y * width + column]) }
                if sum * 2 > rows * (last - first + 1) { out[y * width + x] = 1 }
            }
        }
        return out
    }
}
