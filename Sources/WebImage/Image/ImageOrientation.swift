/// The EXIF orientation of the stored pixels (TIFF tag 274), values 1 to 8.
///
/// Decoders apply the orientation, so an ``Image``'s pixels are always upright; the original
/// value is kept as metadata (``Image/orientation``) for callers that want to know or re-encode it.
public enum ImageOrientation: UInt8, Sendable, Hashable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to be upright.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to be upright.
    case left = 8

    /// Whether applying the orientation swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation for an EXIF value; values outside 1…8 mean upright, as every viewer treats them.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: UInt8(clamping: exifValue)) ?? .up
    }
}
