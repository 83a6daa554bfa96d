/// GIF's variable-length LZW, for the image data giflib refuses: a minimum code size of 9 to 11.
///
/// The GIF spec stops the minimum code size at 8 (one code per palette index), and giflib
/// refuses anything above; Pillow reads up to 11 (codes start 12 bits wide and never grow), and
/// some encoders write such files (Pillow's `issue_2811.gif`). Codes are read least significant
/// bit first; the table grows by one entry a code until it holds 4096, then stays full (a
/// "deferred clear") until a clear code. Indices wider than a byte keep their low byte.
struct GIFLZWDecoder {
    /// The largest minimum code size read: the clear code must fit in 12 bits with room for
    /// the end code and one entry.
    static let largestCodeSize = 11

    private let minimumCodeSize: Int
    private var prefix = [UInt16](repeating: 0, count: 4096)
    private var suffix = [UInt8](repeating: 0, count: 4096)
    /// The first index of each entry's string, and the string's length.
    private var first = [UInt8](repeating: 0, count: 4096)
    private var length = [UInt16](repeating: 0, count: 4096)

    /// A decoder for image data whose minimum code size byte is `minimumCodeSize` (1 to
    /// ``largestCodeSize``).
    init(minimumCodeSize: Int) {
        precondition((1...Self.largestCodeSize).contains(minimumCodeSize), "checked by the caller")
        self.minimumCodeSize = minimumCodeSize
        for code in 0..<(1 << minimumCodeSize) {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = suffix[code]
            length[code] = 1
        }
    }

    /// Decodes up to `count` palette indices from the data sub-blocks `nextBlock` hands out
    /// (nil after the block terminator). Stops at the end code, at `count` indices, at the end
    /// of the blocks, or at a code the table cannot hold yet: what decoded so far is returned,
    /// as Pillow and browsers keep the rows of a frame whose data breaks off.
    mutating func decode(count: Int, nextBlock: () -> UnsafeBufferPointer<UInt8>?) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var output: [UInt8] = []
        output.reserveCapacity(count)
        var width = minimumCodeSize + 1, next = clear + 2
        var previous: Int?
        var bits = 0, bitCount = 0
        var block = nextBlock(), position = 0
        var string = [UInt8](repeating: 0, count: 4096)
        while output.count < count {
            while bitCount < width {
                while let current = block, position == current.count {
                    block = nextBlock()
                    position = 0
                }
                guard let current = block else { return output }
                bits |= Int(current[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let code = bits & ((1 << width) - 1)
            bits >>= width
            bitCount -= width
            if code == clear {
                width = minimumCodeSize + 1
                next = clear + 2
                previous = nil
                continue
            }
            if code == end { break }
            guard let prior = previous else {
                guard code < clear else { return output }
                output.append(suffix[code])
                previous = code
                continue
            }
            // The one code not in the table yet that may come is the entry this code adds.
            guard code <= next else { return output }
            let isNew = code == next
            if next < 4096 {
                prefix[next] = UInt16(prior)
                suffix[next] = isNew ? first[prior] : first[code]
                first[next] = first[prior]
                length[next] = length[prior] + 1
                next += 1
                if next == 1 << width && width < 12 { width += 1 }
            }
            // Walk the entry's string back to front.
            var entry = code, size = Int(length[code])
            for index in stride(from: size - 1, through: 0, by: -1) {
                string[index] = suffix[entry]
                entry = Int(prefix[entry])
            }
            size = min(size, count - output.count)
            output.append(contentsOf: string[0..<size])
            previous = code
        }
        return output
    }
}
