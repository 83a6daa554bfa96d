/// What a GIF frame leaves on the canvas once its display time is over.
enum GIFDisposal {
    /// Leave the frame in place (disposal 0, "unspecified", and 1, "do not dispose"; also the
    /// undefined values 4–7).
    case keep
    /// Restore the frame's rectangle to the background (disposal 2).
    case background
    /// Restore the frame's rectangle to what it was before the frame was drawn (disposal 3).
    case previous
}

/// The GIF89a graphics control extension of one frame: disposal, transparency and delay.
struct GIFGraphicsControl {
    /// What happens to the frame's rectangle before the next frame is drawn.
    var disposal = GIFDisposal.keep
    /// The palette index drawn as "leave the canvas unchanged", if any.
    var transparentIndex: Int?
    /// The display time in hundredths of a second, as stored.
    var delay = 0

    /// The control of a frame that has no extension: keep, opaque, no delay.
    init() {}

    /// Parses the extension's data (the sub-block after the 0xF9 label, without its length
    /// byte); `nil` when it is shorter than the 4 bytes the format defines.
    init?(_ block: UnsafeBufferPointer<UInt8>) {
        guard block.count >= 4 else { return nil }
        let flags = block[0]
        switch (flags >> 2) & 0b111 {
        case 2: disposal = .background
        case 3: disposal = .previous
        default: disposal = .keep
        }
        transparentIndex = flags & 1 != 0 ? Int(block[3]) : nil
        delay = Int(block[1]) | Int(block[2]) << 8
    }
}
