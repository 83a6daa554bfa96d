import WebImage

extension ColorTransform {
    /// Whether this RGB transform changes no colour by more than one level per channel, tried
    /// on a 16 × 16 × 16 grid that includes the extremes: an sRGB profile other than lcms2's
    /// own (the HP/Microsoft `sRGB IEC61966-2.1` most cameras embed) then costs nothing.
    var isNearIdentity: Bool {
        let bytes = ColorGrid.rgba(levels: 16)
        let original = PixelBuffer(width: bytes.count / 4, height: 1, bytes: bytes)
        var converted = original
        apply(to: &converted)
        return zip(original.bytes, converted.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
