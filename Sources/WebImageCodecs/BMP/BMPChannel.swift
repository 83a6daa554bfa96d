/// One colour channel of a 16- or 32-bit bitmap, given by its mask: the masked bits shifted
/// down and scaled to 0…255 (five bits of 31 become 255).
struct BMPChannel {
    /// The mask as stored.
    let mask: UInt32
    private let shift: UInt32
    private let maximum: UInt32

    /// The channel of `mask`; a mask whose bits are not contiguous reads its lowest run.
    init(mask: UInt32) {
        self.mask = mask
        shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
        let bits = mask == 0 ? 0 : (~(mask >> shift)).trailingZeroBitCount
        maximum = bits >= 32 ? UInt32.max : (1 << UInt32(bits)) - 1
    }

    /// The channel's value in `pixel`, 0…255.
    func value(_ pixel: UInt32) -> UInt8 {
        guard maximum > 0 else { return 0 }
        let raw = UInt64((pixel >> shift) & maximum)
        return UInt8((raw * 255 + UInt64(maximum) / 2) / UInt64(maximum))
    }
}
