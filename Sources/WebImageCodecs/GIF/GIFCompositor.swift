import WebImage

/// The canvas a GIF's frames are drawn on in order, disposal included.
///
/// The canvas starts fully transparent, as browsers start it. Palette indices equal to a
/// frame's transparent index leave the canvas unchanged. Disposal 2 restores the frame's
/// rectangle to the background the way Pillow does: transparent when the frame has a
/// transparent index, otherwise the background colour, looked up in the frame's own palette.
/// Disposal 3 restores the rectangle to what it held before the frame was drawn.
struct GIFCompositor {
    /// The composited canvas after the last frame drawn.
    private(set) var canvas: PixelBuffer

    private typealias Rect = (x: Range<Int>, y: Range<Int>)

    /// How to undo the last frame before the next one is drawn.
    private enum Disposal {
        case fill(Rect, RGBA)
        case restore(Rect, [UInt8])
    }

    private let backgroundIndex: Int
    private var pendingDisposal: Disposal?
    /// The current frame's palette as 256 RGBA pixels, each the four bytes in memory order as
    /// one word; the transparent index is 0 (alpha 0).
    private var colorTable = [UInt32](repeating: 0, count: 256)
    /// The part of the canvas the current frame covers.
    private var frameRect: Rect = (0..<0, 0..<0)

    /// A transparent canvas of `size`; `backgroundIndex` is the header's background colour.
    init(size: PixelSize, backgroundIndex: Int) {
        canvas = PixelBuffer(width: size.width, height: size.height)
        self.backgroundIndex = backgroundIndex
    }

    /// Disposes of the previous frame and prepares to draw `frame` with `palette`.
    mutating func begin(_ frame: GIFFrameInfo, palette: GIFPalette) {
        if let disposal = pendingDisposal { apply(disposal) }
        let rect = frame.visibleRect(in: canvas.size)
        frameRect = rect
        switch frame.control.disposal {
        case .keep:
            pendingDisposal = nil
        case .background:
            let background = frame.control.transparentIndex != nil ? RGBA.clear
                : palette.color(at: palette.colors.indices.contains(backgroundIndex) ? backgroundIndex : 0)
            pendingDisposal = .fill(rect, background)
        case .previous:
            pendingDisposal = .restore(rect, copy(rect))
        }
        for index in 0..<256 {
            let color = index == frame.control.transparentIndex ? RGBA.clear : palette.color(at: index)
            colorTable[index] = withUnsafeBytes(of: (color.r, color.g, color.b, color.a)) { $0.loadUnaligned(as: UInt32.self) }
        }
    }

    /// Draws `row` of `frame` (palette indices, one per column of the frame), clipped to the
    /// canvas.
    mutating func draw(row: Int, indices: UnsafeBufferPointer<UInt8>, of frame: GIFFrameInfo) {
        let y = frame.top + row
        let rect = frameRect
        guard rect.y.contains(y), !rect.x.isEmpty, indices.count >= rect.x.upperBound - frame.left else { return }
        let rowStart = y * canvas.width
        let columns = rect.x.lowerBound - frame.left..<rect.x.upperBound - frame.left
        colorTable.withUnsafeBufferPointer { table in
            canvas.bytes.withUnsafeMutableBytes { pixels in
                // A pixel at a time, as one 32-bit word: the canvas is RGBA8.
                var target = (rowStart + rect.x.lowerBound) * 4
                for column in columns {
                    let color = table[Int(indices[column])]
                    if color != 0 { pixels.storeBytes(of: color, toByteOffset: target, as: UInt32.self) }
                    target += 4
                }
            }
        }
    }

    private mutating func apply(_ disposal: Disposal) {
        switch disposal {
        case .fill(let rect, let color):
            for y in rect.y {
                for x in rect.x { canvas[x, y] = color }
            }
        case .restore(let rect, let saved):
            let rowBytes = rect.x.count * 4
            for (n, y) in rect.y.enumerated() {
                let start = (y * canvas.width + rect.x.lowerBound) * 4
                canvas.bytes.replaceSubrange(start..<start + rowBytes, with: saved[n * rowBytes..<(n + 1) * rowBytes])
            }
        }
    }

    private func copy(_ rect: Rect) -> [UInt8] {
        var saved: [UInt8] = []
        saved.reserveCapacity(rect.x.count * rect.y.count * 4)
        for y in rect.y {
            let start = (y * canvas.width + rect.x.lowerBound) * 4
            saved.append(contentsOf: canvas.bytes[start..<start + rect.x.count * 4])
        }
        return saved
    }
}
