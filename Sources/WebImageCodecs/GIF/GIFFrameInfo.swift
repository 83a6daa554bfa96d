import WebImage

/// One image of a GIF as its descriptor and graphics control describe it, before decoding.
struct GIFFrameInfo {
    /// The frame's rectangle on the logical screen, as stored: it may reach past the screen,
    /// and may be empty.
    let left: Int, top: Int, width: Int, height: Int
    /// Whether the rows are stored in the four interlaced passes.
    let isInterlaced: Bool
    /// The frame's own colour table, which takes precedence over the global one.
    let localPalette: GIFPalette?
    /// Disposal, transparency and delay from the graphics control extension before the frame.
    let control: GIFGraphicsControl

    /// The part of the frame inside a canvas of `canvas` size, in canvas coordinates; empty
    /// (zero width or height) when the frame lies wholly outside.
    func visibleRect(in canvas: PixelSize) -> (x: Range<Int>, y: Range<Int>) {
        let x = min(left, canvas.width)..<min(left + width, canvas.width)
        let y = min(top, canvas.height)..<min(top + height, canvas.height)
        return (x, y)
    }

    /// The frame's rows in the order they are stored: top to bottom, or by interlace pass
    /// (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
    var storedRowOrder: [Int] {
        guard isInterlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }
}
