import WebImage

/// One frame as GIF stores it: a palette and an index into it for every pixel.
///
/// Pixels with alpha under 128 become the transparent index (one past the opaque colours);
/// the others are opaque. A frame with at most 256 colours (255 with transparency) keeps them
/// exactly; a frame with more is reduced by median cut: the colours, weighted by how many
/// pixels have them, are split along their widest channel at the median until there are
/// enough boxes, and each box becomes its pixels' mean colour.
struct GIFIndexedFrame {
    /// The opaque colours, at most 256 (255 when there is a transparent index).
    let palette: [RGBA]
    /// The palette index of each pixel, rows top to bottom.
    let indices: [UInt8]
    /// The index of transparent pixels (`palette.count`), if the frame has any.
    let transparentIndex: Int?

    /// `pixels` reduced to at most 256 palette entries.
    init(_ pixels: PixelBuffer) {
        var histogram: [UInt32: Int] = [:]
        var hasTransparency = false
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count, by: 4) {
                if bytes[i + 3] < 128 {
                    hasTransparency = true
                } else {
                    histogram[Self.pack(bytes[i], bytes[i + 1], bytes[i + 2]), default: 0] += 1
                }
            }
        }
        let limit = hasTransparency ? 255 : 256
        var colours = histogram.map { (colour: $0.key, count: $0.value) }.sorted { $0.colour < $1.colour }
        let boxes = colours.count <= limit
            ? colours.indices.map { $0..<$0 + 1 }
            : Self.medianCut(&colours, into: limit)
        var lookup: [UInt32: UInt8] = [:]
        lookup.reserveCapacity(colours.count)
        var palette: [RGBA] = []
        for (index, box) in boxes.enumerated() {
            var sum = SIMD3<Int>(), total = 0
            for entry in colours[box] {
                lookup[entry.colour] = UInt8(index)
                sum &+= Self.unpack(entry.colour) &* entry.count
                total += entry.count
            }
            let mean = (sum &+ total / 2) / total
            palette.append(RGBA(r: UInt8(mean.x), g: UInt8(mean.y), b: UInt8(mean.z)))
        }
        let transparent = hasTransparency ? UInt8(palette.count) : 0
        var indices = [UInt8](repeating: 0, count: pixels.width * pixels.height)
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for p in indices.indices {
                let i = p * 4
                indices[p] = bytes[i + 3] < 128 ? transparent : lookup[Self.pack(bytes[i], bytes[i + 1], bytes[i + 2])] ?? 0
            }
        }
        self.palette = palette
        self.indices = indices
        self.transparentIndex = hasTransparency ? palette.count : nil
    }

    /// Splits `colours` (reordering them) into `count` boxes by median cut; returns their ranges.
    private static func medianCut(_ colours: inout [(colour: UInt32, count: Int)], into count: Int) -> [Range<Int>] {
        // Each box with the channel it would be split along and its priority: that channel's
        // range times the box's pixel count (0 for a box of one colour, which cannot split).
        func measure(_ box: Range<Int>) -> (box: Range<Int>, channel: Int, score: Int) {
            var low = SIMD3<Int>(repeating: 255), high = SIMD3<Int>(repeating: 0), pixels = 0
            for entry in colours[box] {
                let c = unpack(entry.colour)
                low = pointwiseMin(low, c)
                high = pointwiseMax(high, c)
                pixels += entry.count
            }
            let range = high &- low
            let channel = range.x >= range.y && range.x >= range.z ? 0 : (range.y >= range.z ? 1 : 2)
            return (box, channel, box.count > 1 ? range[channel] * pixels : 0)
        }
        var boxes = [measure(colours.indices)]
        while boxes.count < count, let split = boxes.indices.max(by: { boxes[$0].score < boxes[$1].score }),
              boxes[split].score > 0 {
            let (box, channel, _) = boxes[split]
            colours[box].sort { unpack($0.colour)[channel] < unpack($1.colour)[channel] }
            let half = colours[box].reduce(0) { $0 + $1.count } / 2
            var median = box.lowerBound, running = 0
            while median < box.upperBound - 1 && running + colours[median].count <= half {
                running += colours[median].count
                median += 1
            }
            median = max(median, box.lowerBound + 1)
            boxes[split] = measure(box.lowerBound..<median)
            boxes.append(measure(median..<box.upperBound))
        }
        return boxes.map(\.box)
    }

    private static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    private static func unpack(_ colour: UInt32) -> SIMD3<Int> {
        SIMD3(Int(colour >> 16), Int(colour >> 8 & 0xFF), Int(colour & 0xFF))
    }
}
