import Foundation

/// A rectangle of whole pixels on an animation's canvas.
struct PixelRect: Hashable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// One frame of an APNG as its `fcTL` chunk describes it, and where its image data is.
struct APNGFrame: Sendable {
    /// How the frame's region is left before the next frame is drawn (`dispose_op`).
    enum Disposal: UInt8, Sendable {
        /// Leave the canvas as it is.
        case none = 0
        /// Clear the region to transparent black.
        case background = 1
        /// Put back what the region held before this frame was drawn.
        case previous = 2
    }

    /// How the frame is drawn onto the canvas (`blend_op`).
    enum Blend: UInt8, Sendable {
        /// Replace the region's pixels, alpha included.
        case source = 0
        /// Alpha-composite the frame over the region.
        case over = 1
    }

    /// Where the frame's pixels come from.
    enum Source: Sendable {
        /// The file's own image (`IDAT`), decoded from the file as it is.
        case defaultImage
        /// The data of the frame's `fdAT` chunks, sequence numbers excluded, in order.
        case frameData([Range<Int>])
    }

    /// The canvas region the frame covers.
    let region: PixelRect
    /// The display time in seconds, as the file states it.
    let duration: TimeInterval
    let disposal: Disposal
    let blend: Blend
    let source: Source
}
