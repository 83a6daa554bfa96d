import Foundation

/// BlurHash (blurha.sh): a few dozen characters a page turns into a blurred placeholder before
/// the image arrives. The image's linear-light colour is projected onto `x × y` cosine
/// components; the average (DC) component is written as 24-bit sRGB, the others quantised
/// against their largest magnitude, all in base 83.
public enum BlurHash {
    /// The BlurHash of `pixels` with `xComponents` across and `yComponents` down (1…9 each).
    /// Alpha is not read: transparent pixels count with their stored colour. Pass a thumbnail
    /// (``PixelBuffer/analysisThumbnail(maxSide:)``): the answer does not need more pixels,
    /// and the work is pixels × components.
    public static func encode(_ pixels: PixelBuffer, xComponents: Int, yComponents: Int) throws(ImageAnalysisError) -> String {
        guard (1...9).contains(xComponents), (1...9).contains(yComponents) else {
            throw .componentsOutOfRange(x: xComponents, y: yComponents)
        }
        guard pixels.width > 0, pixels.height > 0 else { throw .emptyImage }
        let width = pixels.width, height = pixels.height
        let linear = (0...255).map { linearFromSRGB(Double($0) / 255) }
        // Cosines per axis, computed once: cosX[i][x], cosY[j][y].
        let cosX = (0..<xComponents).map { i in (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) } }
        let cosY = (0..<yComponents).map { j in (0..<height).map { cos(Double.pi * Double(j) * Double($0) / Double(height)) } }
        var factors: [(Double, Double, Double)] = []
        factors.reserveCapacity(xComponents * yComponents)
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for j in 0..<yComponents {
                for i in 0..<xComponents {
                    var r = 0.0, g = 0.0, b = 0.0
                    for y in 0..<height {
                        let row = y * width * 4, weightY = cosY[j][y]
                        for x in 0..<width {
                            let basis = cosX[i][x] * weightY, at = row + x * 4
                            r += basis * linear[Int(bytes[at])]
                            g += basis * linear[Int(bytes[at + 1])]
                            b += basis * linear[Int(bytes[at + 2])]
                        }
                    }
                    let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(width * height)
                    factors.append((r * scale, g * scale, b * scale))
                }
            }
        }
        var hash = base83(xComponents - 1 + (yComponents - 1) * 9, length: 1)
        let ac = factors.dropFirst()
        let maximum: Double
        if let largest = ac.map({ max(abs($0.0), abs($0.1), abs($0.2)) }).max() {
            let quantised = max(0, min(82, Int((largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, length: 1)
        } else {
            maximum = 1
            hash += base83(0, length: 1)
        }
        let dc = factors[0]
        hash += base83(srgbByte(dc.0) << 16 | srgbByte(dc.1) << 8 | srgbByte(dc.2), length: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                max(0, min(18, Int((signedPow(value / maximum, 0.5) * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.0) * 19 * 19 + quantise(factor.1) * 19 + quantise(factor.2), length: 2)
        }
        return hash
    }

    /// BlurHash's 83 characters.
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// `value` in `length` base-83 digits, most significant first.
    private static func base83(_ value: Int, length: Int) -> String {
        var digits = "", divisor = 1
        for _ in 1..<max(length, 1) { divisor *= 83 }
        for _ in 0..<length {
            digits.append(alphabet[(value / divisor) % 83])
            divisor = max(divisor / 83, 1)
        }
        return digits
    }

    private static func linearFromSRGB(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// A linear value as an sRGB byte.
    private static func srgbByte(_ value: Double) -> Int {
        let clamped = max(0, min(1, value))
        let encoded = clamped <= 0.0031308 ? clamped * 12.92 : 1.055 * pow(clamped, 1 / 2.4) - 0.055
        return Int((encoded * 255 + 0.5).rounded(.down))
    }

    private static func signedPow(_ value: Double, _ exponent: Double) -> Double {
        (value < 0 ? -1 : 1) * pow(abs(value), exponent)
    }
}
