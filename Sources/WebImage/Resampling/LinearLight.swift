import Foundation

/// The sRGB transfer function both ways, for resizing in linear light: there, a mix of black
/// and white is as bright as the light they average (sRGB 188, not 128), as the eye sees a
/// fine pattern from afar. Channels stay on the 0…255 scale the filters use.
enum LinearLight {
    /// Each sRGB byte's linear light, 0…255.
    static let decoding: [Float] = (0...255).map { Float(linear(Double($0) / 255) * 255) }

    /// sRGB bytes of linear light by ``encodingSteps`` equal steps of 0…255: near black one step is
    /// a twentieth of a byte, so rounding through the table loses nothing a byte can show.
    private static let encoding: [UInt8] = (0...encodingSteps).map {
        UInt8((encoded(Double($0) / Double(encodingSteps)) * 255).rounded())
    }
    private static let encodingSteps = 65_535

    /// The sRGB byte of linear light `value` (0…255, clamped).
    @inline(__always)
    static func encode(_ value: Float) -> UInt8 {
        let clamped = min(max(value, 0), 255)
        return encoding[Int(clamped * (Float(encodingSteps) / 255) + 0.5)]
    }

    /// The linear light of sRGB-encoded `value` (0…1), by IEC 61966-2-1.
    private static func linear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// The sRGB encoding of linear light `value` (0…1).
    private static func encoded(_ value: Double) -> Double {
        value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
    }
}
