import Foundation

/// BlurHash (woltapp/blurhash): a short string a page turns into a blurred placeholder while the
/// image itself is on its way.
///
/// The image's linear-light colour is projected onto `x × y` cosine components; the average
/// (DC) component is written as 24-bit sRGB, the others (AC) as square roots of their share of
/// the largest AC magnitude, itself quantised to 83 levels; everything in base 83. The string
/// is `1 + 1 + 4 + 2 × (x × y − 1)` characters long.
public enum BlurHash {
    /// The BlurHash of `pixels` with `xComponents` across and `yComponents` down (1…9 each).
    ///
    /// Alpha is not read and nothing is composited: every pixel counts with its stored RGB,
    /// as the reference encoder, which takes RGB only, does. The work is pixels × components,
    /// and a hash needs no more than a thumbnail (about 100 × 100) to be as good as it gets:
    /// pass one.
    public static func encode(_ pixels: PixelBuffer, xComponents: Int, yComponents: Int) throws(ImageAnalysisError) -> String {
        guard (1...9).contains(xComponents), (1...9).contains(yComponents) else {
            throw .componentsOutOfRange(x: xComponents, y: yComponents)
        }
        guard pixels.width > 0, pixels.height > 0 else { throw .emptyImage }
        let factors = components(of: pixels, x: xComponents, y: yComponents)
        let ac = factors.dropFirst()

        var hash: [UInt8] = []
        hash.reserveCapacity(6 + 2 * ac.count)
        appendBase83(xComponents - 1 + (yComponents - 1) * 9, digits: 1, to: &hash)
        let largest = ac.map { max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
        let quantisedMaximum = ac.isEmpty ? 0 : clamp(Int((largest * 166 - 0.5).rounded(.down)), 0, 82)
        let maximum = ac.isEmpty ? 1 : Double(quantisedMaximum + 1) / 166
        appendBase83(quantisedMaximum, digits: 1, to: &hash)
        let dc = factors[0]
        appendBase83(srgbByte(dc.x) << 16 | srgbByte(dc.y) << 8 | srgbByte(dc.z), digits: 4, to: &hash)
        for factor in ac {
            let r = quantiseAC(factor.x, maximum), g = quantiseAC(factor.y, maximum), b = quantiseAC(factor.z, maximum)
            appendBase83(r * 19 * 19 + g * 19 + b, digits: 2, to: &hash)
        }
        return String(decoding: hash, as: UTF8.self)
    }

    /// The `x × y` factors, row by row of components (`j` down, `i` across): the mean of each
    /// pixel's linear colour times `cos(π i px / width) · cos(π j py / height)`, doubled for AC.
    /// The basis is separable, so each row of pixels is projected onto the `x` cosines across
    /// first and those sums onto the `y` cosines down: `(width + y) × height × x` products
    /// instead of `width × height × x × y`.
    private static func components(of pixels: PixelBuffer, x: Int, y: Int) -> [SIMD3<Double>] {
        let width = pixels.width, height = pixels.height
        let cosinesAcross = cosines(count: x, over: width)
        let cosinesDown = cosines(count: y, over: height)
        var rowSums = [SIMD3<Double>](repeating: .zero, count: height * x)
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for py in 0..<height {
                let row = py * width * 4
                for i in 0..<x {
                    var sum = SIMD3<Double>.zero
                    for px in 0..<width {
                        let at = row + px * 4
                        let colour = SIMD3(linear[Int(bytes[at])], linear[Int(bytes[at + 1])], linear[Int(bytes[at + 2])])
                        sum += cosinesAcross[i * width + px] * colour
                    }
                    rowSums[py * x + i] = sum
                }
            }
        }
        var factors: [SIMD3<Double>] = []
        factors.reserveCapacity(x * y)
        for j in 0..<y {
            for i in 0..<x {
                var sum = SIMD3<Double>.zero
                for py in 0..<height { sum += cosinesDown[j * height + py] * rowSums[py * x + i] }
                let normalisation: Double = i == 0 && j == 0 ? 1 : 2
                factors.append(sum * (normalisation / Double(width * height)))
            }
        }
        return factors
    }

    /// `cos(π k n / size)` for `k` in `0..<count` and `n` in `0..<size`, `k`-major.
    private static func cosines(count: Int, over size: Int) -> [Double] {
        (0..<count).flatMap { k in (0..<size).map { n in cos(Double.pi * Double(k) * Double(n) / Double(size)) } }
    }

    /// Each sRGB byte's linear-light value, 0…1.
    private static let linear: [Double] = (0...255).map { byte in
        let value = Double(byte) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// A linear-light value (clamped to 0…1) as an sRGB byte, rounded half up.
    private static func srgbByte(_ value: Double) -> Int {
        let v = min(max(value, 0), 1)
        let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
        return clamp(Int((encoded * 255 + 0.5).rounded(.down)), 0, 255)
    }

    /// An AC factor as one of 19 levels: the signed square root of its share of `maximum`.
    private static func quantiseAC(_ value: Double, _ maximum: Double) -> Int {
        let share = value / maximum
        let root = share < 0 ? -(-share).squareRoot() : share.squareRoot()
        return clamp(Int((root * 9 + 9.5).rounded(.down)), 0, 18)
    }

    private static func clamp(_ value: Int, _ lower: Int, _ upper: Int) -> Int {
        min(max(value, lower), upper)
    }

    /// BlurHash's 83 digits, in order.
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// `value` as `digits` base-83 digits, most significant first.
    private static func appendBase83(_ value: Int, digits: Int, to hash: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 83 }
        for _ in 0..<digits {
            hash.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
    }
}
