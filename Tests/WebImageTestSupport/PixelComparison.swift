import WebImage

/// How far two RGBA images are apart, as the fixtures README measures it.
public struct PixelDifference: CustomStringConvertible {
    /// The largest difference of one channel of one pixel.
    public let maximum: Int
    /// The mean absolute difference over all channels.
    public let mean: Double

    /// Compares `a` with `b` (same size required); RGB is ignored where both alphas are 0.
    public init(_ a: PixelBuffer, _ b: PixelBuffer) {
        precondition(a.width == b.width && a.height == b.height, "compare buffers of one size")
        var maximum = 0
        var total = 0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            let clear = a.bytes[i + 3] == 0 && b.bytes[i + 3] == 0
            for c in 0..<4 where !(clear && c < 3) {
                let d = abs(Int(a.bytes[i + c]) - Int(b.bytes[i + c]))
                maximum = max(maximum, d)
                total += d
            }
        }
        self.maximum = maximum
        self.mean = a.bytes.isEmpty ? 0 : Double(total) / Double(a.bytes.count)
    }

    /// Whether the difference is within `maximum` per channel and `mean` on average.
    public func isWithin(maximum limit: Int, mean meanLimit: Double) -> Bool {
        maximum <= limit && mean <= meanLimit
    }

    public var description: String { "max \(maximum), mean \(mean)" }
}
