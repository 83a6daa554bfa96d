/// Coding-independent code points (ITU-T H.273): colour primaries, transfer characteristics
/// and matrix coefficients by number, as an `nclx` box or an AV1/HEVC header states them.
/// sRGB is 1/13/…; BT.2100 PQ is 9/16/9.
struct ColorCodePoints: Sendable, Hashable {
    /// `colour_primaries` (1 = BT.709/sRGB, 9 = BT.2020, 12 = Display P3).
    var primaries: UInt16
    /// `transfer_characteristics` (13 = sRGB, 16 = PQ, 18 = HLG).
    var transfer: UInt16
    /// `matrix_coefficients` (0 = identity/RGB, 1 = BT.709, 6 = BT.601).
    var matrix: UInt16
    /// Whether the samples use the full range rather than the video (limited) range.
    var fullRange: Bool
}
