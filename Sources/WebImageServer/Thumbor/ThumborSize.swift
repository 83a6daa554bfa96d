/// The size part of a thumbor URL, `[-]Wx[-]H`: each side a number, empty (0), or `orig`, and a
/// `-` before a side asking for a flip along it (`-300x200` mirrors left to right).
struct ThumborSize: Hashable {
    /// The width as written: digits, `orig`, or empty.
    var width: Substring = ""
    /// The height as written: digits, `orig`, or empty.
    var height: Substring = ""
    /// Whether the image is mirrored left to right (a `-` before the width).
    var flipsHorizontally = false
    /// Whether the image is mirrored top to bottom (a `-` before the height).
    var flipsVertically = false

    /// No size: the image keeps its size, unflipped.
    init() {}

    /// The size `segment` writes, or nil when it is not of thumbor's shape (so it is not the size part).
    init?(segment: Substring) {
        let sides = segment.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2 else { return nil }
        for (index, side) in sides.enumerated() {
            let flipped = side.hasPrefix("-")
            let value = flipped ? side.dropFirst() : side
            guard value == "orig" || value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            if index == 0 {
                (width, flipsHorizontally) = (value, flipped)
            } else {
                (height, flipsVertically) = (value, flipped)
            }
        }
    }

    /// This size once both sides are known to be pixel counts within `limits`.
    func checked(_ limits: ProcessingURLLimits) throws(ProcessingURLError) -> ThumborSize {
        for side in [width, height] {
            guard side == "orig" || side.utf8.count <= 9, (Int(side) ?? 0) <= limits.maxDimension else {
                throw .invalidArgument(option: "size", reason: "a side is over \(limits.maxDimension) pixels")
            }
        }
        return self
    }

    /// Whether the width is `orig`: the source's.
    var widthIsOriginal: Bool { width == "orig" }

    /// Whether the height is `orig`: the source's.
    var heightIsOriginal: Bool { height == "orig" }

    /// The width in pixels, 0 when not given or `orig`.
    var pixelWidth: Int { Int(width) ?? 0 }

    /// The height in pixels, 0 when not given or `orig`.
    var pixelHeight: Int { Int(height) ?? 0 }
}
