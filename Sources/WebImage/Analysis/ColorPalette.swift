/// The main colours of an image by modified median cut quantisation (MMCQ), the algorithm of
/// Leptonica that color-thief and Vibrant.js use, here over RGBA instead of RGB.
///
/// Colours are counted in a histogram of 5 bits a channel. The box of colour space around all
/// of them is cut in two, again and again, each time the box whose turn it is, along its longest
/// side (in bins), near the median of its pixels but moved toward the farther end (the
/// "modification": a cut off a dense cluster keeps the cluster whole). Boxes take turns by
/// their pixel count until three quarters of the colours are made, then by pixel count times
/// volume, so that sparse but wide regions of colour get colours too. Each box's bounds shrink
/// to the bins it holds, so its volume measures colours really present. A box's colour is the
/// mean of the exact colours of its pixels, so an image of few colours gets them back exactly.
public enum ColorPalette {
    /// At most `maximum` (2…256) colours of `pixels`, the one standing for the most pixels
    /// first (ties: lowest R, G, B, A first). Deterministic: the same pixels give the same list.
    ///
    /// Fully transparent pixels all count as one colour, transparent black, whatever RGB they
    /// store; others count with their alpha as a fourth channel of colour. Fewer colours come
    /// back when the image has fewer in distinct bins.
    public static func colors(of pixels: PixelBuffer, maximum: Int) throws(ImageAnalysisError) -> [RGBA] {
        guard (2...256).contains(maximum) else { throw .paletteSizeOutOfRange(maximum) }
        guard pixels.width > 0, pixels.height > 0 else { throw .emptyImage }
        return quantize(pixels, maximum: maximum) { $0.a == 0 ? .clear : $0 }.map(\.color)
    }

    /// The MMCQ of the pixels that `prepare` keeps, as `prepare` changes them (nil leaves a
    /// pixel out): at most `maximum` colours, each with the number of pixels it stands for,
    /// most pixels first. Empty when no pixel is kept.
    static func quantize(_ pixels: PixelBuffer, maximum: Int, prepare: (RGBA) -> RGBA?) -> [(color: RGBA, population: Int)] {
        var entries = histogram(of: pixels, prepare: prepare)
        guard !entries.isEmpty else { return [] }
        var boxes = [Box(entries, range: entries.indices)]
        split(&boxes, &entries, until: (3 * maximum + 3) / 4) { $0.population }
        split(&boxes, &entries, until: maximum) { $0.population * $0.volume }
        let colours = boxes.map { box in
            let sum = entries[box.range].reduce(SIMD4<Int>.zero) { $0 &+ $1.sum }
            let mean = (sum &* 2 &+ box.population) / (2 * box.population)
            return (color: RGBA(r: UInt8(mean.x), g: UInt8(mean.y), b: UInt8(mean.z), a: UInt8(mean.w)), population: box.population)
        }
        return colours.sorted { lhs, rhs in
            if lhs.population != rhs.population { return lhs.population > rhs.population }
            return key(lhs.color) < key(rhs.color)
        }
    }

    /// Bits kept of each channel in the histogram.
    private static let significantBits = 5
    /// Bins along each channel.
    private static let binsPerChannel = 1 << significantBits

    /// The pixels `prepare` keeps, grouped by bin: one entry a non-empty bin, in the order the
    /// bins first appear in the image.
    private static func histogram(of pixels: PixelBuffer, prepare: (RGBA) -> RGBA?) -> [Entry] {
        let shift = UInt8(8 - significantBits)
        var slots = [Int32](repeating: -1, count: 1 << (4 * significantBits))
        var entries: [Entry] = []
        pixels.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i + 3 < bytes.count {
                defer { i += 4 }
                guard let colour = prepare(RGBA(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])) else { continue }
                let channels = SIMD4(colour.r, colour.g, colour.b, colour.a)
                let bin = channels &>> shift
                let slot = ((Int(bin.x) << significantBits | Int(bin.y)) << significantBits | Int(bin.z)) << significantBits | Int(bin.w)
                if slots[slot] < 0 {
                    slots[slot] = Int32(entries.count)
                    entries.append(Entry(bin: bin, count: 0, sum: .zero))
                }
                let index = Int(slots[slot])
                entries[index].count += 1
                entries[index].sum &+= SIMD4<Int>(truncatingIfNeeded: channels)
            }
        }
        return entries
    }

    /// Splits boxes, the one first by `priority` (the earliest of equals) among those that
    /// hold more than one bin, until there are `target` boxes or none can be split.
    private static func split(_ boxes: inout [Box], _ entries: inout [Entry], until target: Int, priority: (Box) -> Int) {
        while boxes.count < target {
            var chosen: Int?
            for (index, box) in boxes.enumerated() where box.range.count > 1 {
                if let best = chosen, priority(boxes[best]) >= priority(box) { continue }
                chosen = index
            }
            guard let chosen else { return }
            let (first, second) = cut(boxes[chosen], &entries)
            boxes[chosen] = first
            boxes.append(second)
        }
    }

    /// `box` (of more than one bin) cut in two along its longest side: at the first bin where
    /// more than half its pixels are behind, then moved half of the way toward the farther
    /// end, as Leptonica's MMCQ does. Both halves hold pixels, since the bounds are the bins'.
    private static func cut(_ box: Box, _ entries: inout [Entry]) -> (Box, Box) {
        let sides = box.upper &- box.lower
        var axis = 0
        for channel in 1..<4 where sides[channel] > sides[axis] { axis = channel }
        var perBin = [Int](repeating: 0, count: binsPerChannel)
        for entry in entries[box.range] { perBin[Int(entry.bin[axis])] += entry.count }
        let lower = Int(box.lower[axis]), upper = Int(box.upper[axis])
        var median = lower, behind = 0
        for bin in lower...upper {
            behind += perBin[bin]
            median = bin
            if 2 * behind > box.population { break }
        }
        let left = median - lower, right = upper - median
        let last = left <= right ? min(upper - 1, median + right / 2) : max(lower, median - 1 - left / 2)
        var boundary = box.range.lowerBound
        for index in box.range where Int(entries[index].bin[axis]) <= last {
            entries.swapAt(index, boundary)
            boundary += 1
        }
        return (Box(entries, range: box.range.lowerBound..<boundary), Box(entries, range: boundary..<box.range.upperBound))
    }

    /// `colour` as one number that orders colours by R, then G, B and A.
    private static func key(_ colour: RGBA) -> UInt32 {
        UInt32(colour.r) << 24 | UInt32(colour.g) << 16 | UInt32(colour.b) << 8 | UInt32(colour.a)
    }

    /// The pixels of one histogram bin.
    private struct Entry {
        /// The bin along each channel, 0..<``binsPerChannel``.
        var bin: SIMD4<UInt8>
        /// Pixels in the bin.
        var count: Int
        /// The sum of their exact R, G, B and A.
        var sum: SIMD4<Int>
    }

    /// A box of colour space: a range of the entries, kept together, and the bins they span.
    private struct Box {
        var range: Range<Int>
        /// The smallest and largest bin of its entries along each channel.
        var lower: SIMD4<UInt8>, upper: SIMD4<UInt8>
        /// Pixels in the box.
        var population: Int

        /// The box of `entries[range]` (not empty).
        init(_ entries: [Entry], range: Range<Int>) {
            self.range = range
            lower = SIMD4(repeating: UInt8.max)
            upper = .zero
            population = 0
            for entry in entries[range] {
                lower = pointwiseMin(lower, entry.bin)
                upper = pointwiseMax(upper, entry.bin)
                population += entry.count
            }
        }

        /// Bins inside the box.
        var volume: Int {
            let sides = SIMD4<Int>(truncatingIfNeeded: upper &- lower) &+ 1
            return sides.x * sides.y * sides.z * sides.w
        }
    }
}
