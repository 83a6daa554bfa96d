/// Conversions between RGBA8 pixels and the premultiplied Float pixels (channels 0…255) that
/// every filter works on, so that a transparent pixel's colour never weighs in.
enum PremultipliedRGBA {
    /// The pixel at byte `offset` of RGBA8 `bytes`, premultiplied.
    @inline(__always)
    static func load(_ bytes: UnsafeRawPointer, at offset: Int) -> SIMD4<Float> {
        premultiplied(SIMD4<Float>(bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)))
    }

    /// `colour`, premultiplied.
    static func load(_ colour: RGBA) -> SIMD4<Float> {
        premultiplied(SIMD4<Float>(Float(colour.r), Float(colour.g), Float(colour.b), Float(colour.a)))
    }

    /// A non-premultiplied Float pixel (channels 0…255) premultiplied by its alpha.
    @inline(__always)
    static func premultiplied(_ pixel: SIMD4<Float>) -> SIMD4<Float> {
        let alpha = pixel.w
        var out = pixel * (alpha * (1 / 255))
        out.w = alpha
        return out
    }

    /// Writes premultiplied `pixel` at byte `offset` of `bytes` as RGBA8, rounded and clamped;
    /// a pixel whose alpha rounds to 0 becomes transparent black.
    @inline(__always)
    static func store(_ pixel: SIMD4<Float>, to bytes: UnsafeMutableRawPointer, at offset: Int) {
        let p = bytes.assumingMemoryBound(to: UInt8.self) + offset
        let alpha = min(max(pixel.w, 0), 255)
        guard alpha >= 0.5 else {
            p.update(repeating: 0, count: 4)
            return
        }
        let scale = 255 / alpha
        p[0] = byte(pixel.x * scale)
        p[1] = byte(pixel.y * scale)
        p[2] = byte(pixel.z * scale)
        p[3] = byte(alpha)
    }

    /// `value` rounded and clamped to 0…255. Scalar: the generic SIMD clamping and
    /// float-to-integer conversions are not inlined and cost more than the arithmetic.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int32(min(max(value, 0), 255) + 0.5))
    }
}
