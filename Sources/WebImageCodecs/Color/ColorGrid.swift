/// Test colours for checking a transform: every colour of an n × n × n grid over 0...255,
/// the extremes included.
enum ColorGrid {
    /// The grid with `levels` values per channel, as opaque RGBA8 pixels.
    static func rgba(levels: Int) -> [UInt8] {
        let values = (0..<levels).map { UInt8(($0 * 255 + (levels - 1) / 2) / (levels - 1)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(levels * levels * levels * 4)
        for r in values { for g in values { for b in values { bytes += [r, g, b, 255] } } }
        return bytes
    }
}
