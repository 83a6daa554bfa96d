/// Applies ``ColorAdjustment``s to every frame, in order, leaving alpha as it is. Colour is
/// worked on unpremultiplied, as thumbor's filters work on Pillow's RGBA.
public struct ColorAdjustingTransformer: ImageTransformer {
    /// The adjustments, applied first to last.
    public let adjustments: [ColorAdjustment]

    /// A transformer applying `adjustments` in order.
    public init(_ adjustments: [ColorAdjustment]) {
        self.adjustments = adjustments
    }

    /// `colors(brightness(20),equalize)`.
    public var key: String { "colors(" + adjustments.map(\.key).joined(separator: ",") + ")" }

    /// Every frame adjusted; nil when there is nothing to adjust.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard !adjustments.isEmpty else { return nil }
        return image.mappingFrames { pixels in
            var out = pixels
            for adjustment in adjustments {
                Self.apply(adjustment, to: &out.bytes)
            }
            return out
        }
    }

    /// `adjustment` applied to the RGBA `bytes` in place.
    static func apply(_ adjustment: ColorAdjustment, to bytes: inout [UInt8]) {
        switch adjustment {
        case .brightness(let percent):
            let delta = 255 * percent / 100
            mapChannels(&bytes) { value, _ in value + delta }
        case .contrast(let percent):
            let factor = (percent + 100) * (percent + 100) / 100
            mapChannels(&bytes) { value, _ in factor * (value - 128) / 100 + 128 }
        case .channels(let red, let green, let blue):
            let deltas = [255 * red / 100, 255 * green / 100, 255 * blue / 100]
            mapChannels(&bytes) { value, channel in value + deltas[channel] }
        case .saturation(let factor):
            saturate(&bytes, factor: factor)
        case .noise(let amount, let seed):
            addNoise(&bytes, amount: amount, seed: seed)
        case .equalize:
            equalize(&bytes)
        case .brightnessOffset(let offset):
            mapChannels(&bytes) { value, _ in value + offset }
        case .contrastScale(let factor):
            mapChannels(&bytes) { value, _ in Int(((Double(value) - 128) * factor + 128).rounded()) }
        case .luminanceSaturation(let factor):
            saturateByMatrix(&bytes, factor: factor)
        case .curves(let all, let red, let green, let blue):
            let overall = all.table, channels = [red.table, green.table, blue.table]
            mapChannels(&bytes) { value, channel in Int(overall[Int(channels[channel][value])]) }
        case .colorize(let red, let green, let blue, let colour):
            let percents = [red, green, blue], targets = [Int(colour.r), Int(colour.g), Int(colour.b)]
            mapChannels(&bytes) { value, channel in
                (value * (100 - percents[channel]) + targets[channel] * percents[channel]) / 100
            }
        }
    }

    /// Each colour channel replaced by `change(value, channel)`, clamped to 0…255.
    private static func mapChannels(_ bytes: inout [UInt8], _ change: (Int, Int) -> Int) {
        var tables: [[UInt8]] = []
        for channel in 0..<3 {
            tables.append((0..<256).map { clamped(change($0, channel)) })
        }
        bytes.withUnsafeMutableBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count - 3, by: 4) {
                bytes[i] = tables[0][Int(bytes[i])]
                bytes[i + 1] = tables[1][Int(bytes[i + 1])]
                bytes[i + 2] = tables[2][Int(bytes[i + 2])]
            }
        }
    }

    /// Each channel moved from the pixel's perceived brightness by `factor`, truncated as thumbor's C does.
    private static func saturate(_ bytes: inout [UInt8], factor: Double) {
        bytes.withUnsafeMutableBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count - 3, by: 4) {
                let r = Double(bytes[i]), g = Double(bytes[i + 1]), b = Double(bytes[i + 2])
                let p = (r * r * 0.299 + g * g * 0.587 + b * b * 0.114).squareRoot()
                bytes[i] = clamped(Int(p + (r - p) * factor))
                bytes[i + 1] = clamped(Int(p + (g - p) * factor))
                bytes[i + 2] = clamped(Int(p + (b - p) * factor))
            }
        }
    }

    /// Each colour through the CSS `saturate(factor)` matrix (Filter Effects 1, `feColorMatrix`
    /// `saturate`): the Rec. 709 luminance kept, the colour's distance from it scaled.
    private static func saturateByMatrix(_ bytes: inout [UInt8], factor: Double) {
        let s = Float(factor)
        let rows: [SIMD3<Float>] = [
            SIMD3(0.2126 + 0.7874 * s, 0.7152 - 0.7152 * s, 0.0722 - 0.0722 * s),
            SIMD3(0.2126 - 0.2126 * s, 0.7152 + 0.2848 * s, 0.0722 - 0.0722 * s),
            SIMD3(0.2126 - 0.2126 * s, 0.7152 - 0.7152 * s, 0.0722 + 0.9278 * s),
        ]
        bytes.withUnsafeMutableBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count - 3, by: 4) {
                let colour = SIMD3<Float>(Float(bytes[i]), Float(bytes[i + 1]), Float(bytes[i + 2]))
                for channel in 0..<3 {
                    bytes[i + channel] = clamped(Int(((rows[channel] * colour).sum()).rounded()))
                }
            }
        }
    }

    /// One value in −amount/2 ..< amount/2 added to each pixel's three channels.
    private static func addNoise(_ bytes: inout [UInt8], amount: Int, seed: UInt64) {
        guard amount > 0 else { return }
        var state = seed
        bytes.withUnsafeMutableBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count - 3, by: 4) {
                // SplitMix64: small, fast and the same on every platform.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                let delta = Int(z % UInt64(amount)) - amount / 2
                for channel in 0..<3 {
                    bytes[i + channel] = clamped(Int(bytes[i + channel]) + delta)
                }
            }
        }
    }

    /// Histogram equalisation per channel: each value becomes its share of the pixels at or
    /// below it, the lowest present value going to 0 and the highest to 255.
    private static func equalize(_ bytes: inout [UInt8]) {
        let area = bytes.count / 4
        var counts = [Int](repeating: 0, count: 3 * 256)
        counts.withUnsafeMutableBufferPointer { counts in
            bytes.withUnsafeBufferPointer { bytes in
                for i in stride(from: 0, to: area * 4, by: 4) {
                    for channel in 0..<3 { counts[channel * 256 + Int(bytes[i + channel])] += 1 }
                }
            }
        }
        var tables: [[UInt8]] = []
        for channel in 0..<3 {
            let histogram = counts[(channel * 256)..<(channel * 256 + 256)]
            var cumulative = 0
            var table = [UInt8](repeating: 0, count: 256)
            let least = histogram.first { $0 > 0 } ?? 0
            for (value, count) in histogram.enumerated() {
                cumulative += count
                guard area > least else { table[value] = UInt8(value); continue }
                table[value] = clamped(Int(Double(cumulative - least) / Double(area - least) * 255))
            }
            tables.append(table)
        }
        bytes.withUnsafeMutableBufferPointer { bytes in
            for i in stride(from: 0, to: area * 4, by: 4) {
                for channel in 0..<3 { bytes[i + channel] = tables[channel][Int(bytes[i + channel])] }
            }
        }
    }

    /// `value` held to 0…255.
    private static func clamped(_ value: Int) -> UInt8 {
        UInt8(min(max(value, 0), 255))
    }
}

extension ImageTransformer where Self == ColorAdjustingTransformer {
    /// Applies `adjustments` to the colours, in order, keeping alpha.
    public static func adjustingColors(_ adjustments: [ColorAdjustment]) -> ColorAdjustingTransformer {
        ColorAdjustingTransformer(adjustments)
    }
}
