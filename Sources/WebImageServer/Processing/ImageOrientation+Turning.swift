import WebImage

extension ImageOrientation {
    /// The orientation whose ``PixelBuffer/applying(_:)`` mirrors the pixels left to right when
    /// `mirrored`, then turns them clockwise by `quarterTurns` × 90° (any whole number, negative
    /// for counter-clockwise): every mix of flips and quarter turns is one of the eight.
    init(mirrored: Bool, clockwiseQuarterTurns quarterTurns: Int) {
        let turns = (quarterTurns % 4 + 4) % 4
        self = mirrored ? [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored][turns]
            : [.up, .right, .down, .left][turns]
    }
}
