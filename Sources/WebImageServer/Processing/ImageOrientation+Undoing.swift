import WebImage

extension ImageOrientation {
    /// The orientation that turns pixels with this orientation applied back into the stored
    /// pixels: the quarter turns swap, the flips and the half turn undo themselves.
    var undoing: ImageOrientation {
        switch self {
        case .left: .right
        case .right: .left
        default: self
        }
    }
}
