/// Conversions between RGBA8 pixels and the premultiplied Float pixels (channels 0…255) that
/// every filter works on, so that a transparent pixel's colour never weighs in.
enum PremultipliedRGBA {
    /// The pixel at byte `offset` of RGBA8 `bytes`, premultiplied.
    @inline(__always)
    static func load(_ bytes: UnsafeRawPointer, at offset: Int) -> SIMD4<Float> {
        var pixel = SIMD4<Float>(bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
        let alpha = pixel.w
        pixel *= alpha * (1 / 255)
        pixel.w = alpha
        return pixel
    }

    /// `colour`, premultiplied.
    static func load(_ colour: RGBA) -> SIMD4<Float> {
        let alpha = Float(colour.a)
        return SIMD4<Float>(Float(colour.r) * alpha / 255, Float(colour.g) * alpha / 255, Float(colour.b) * alpha / 255, alpha)
    }

    /// Writes premultiplied `pixel` at byte `offset` of `bytes` as RGBA8, rounded and clamped;
    /// a pixel whose alpha rounds to 0 becomes transparent black.
    @inline(__always)
    static func store(_ pixel: SIMD4<Float>, to bytes: UnsafeMutableRawPointer, at offset: Int) {
        let alpha = min(max(pixel.w, 0), 255)
        var out = SIMD4<Float>()
        if alpha >= 0.5 {
            out = pixel * (255 / alpha)
            out.w = alpha
            out = out.clamped(lowerBound: SIMD4<Float>(), upperBound: SIMD4<Float>(repeating: 255))
                + SIMD4<Float>(repeating: 0.5)
        }
        // Scalar conversions: the generic SIMD float-to-integer initialiser is far slower.
        let p = bytes.assumingMemoryBound(to: UInt8.self) + offset
        p[0] = UInt8(truncatingIfNeeded: Int32(out.x))
        p[1] = UInt8(truncatingIfNeeded: Int32(out.y))
        p[2] = UInt8(truncatingIfNeeded: Int32(out.z))
        p[3] = UInt8(truncatingIfNeeded: Int32(out.w))
    }
}
