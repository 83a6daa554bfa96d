import Foundation
import WebImage

/// Reads the frames of a GIF lazily, composited onto the logical screen.
///
/// Creating a reader reads the whole stream once without decoding pixels: it counts the
/// frames, collects their rectangles, palettes, disposal and delays and the loop count, and
/// checks every size against the pixel limit before anything is allocated. ``frame(at:)``
/// then decodes forwards from the last frame it composited, or replays from the first frame
/// when asked for an earlier one (a GIF frame depends on every frame before it).
final class GIFFrameReader: AnimatedFrameReader {
    let canvasSize: PixelSize
    let loopCount: Int
    var frameCount: Int { frames.count }
    /// Whether the file reached its trailer: false for a download still arriving (or a cut file).
    let isWhole: Bool

    private let data: Data
    private let frames: [GIFFrameInfo]
    private let globalPalette: GIFPalette?
    private let backgroundIndex: Int

    /// The pass compositing frames in order, if one is under way.
    private var pass: Pass?

    /// A giflib pass over the file and the canvas it has composited so far.
    private struct Pass {
        let file: GIFFile
        var compositor: GIFCompositor
        /// The index of the next frame `file` will read; the canvas shows the one before.
        var nextIndex = 0
    }

    /// Scans `data`; throws for a GIF without pixels, one whose canvas or any frame exceeds
    /// `options.maxPixels`, or structure damaged or truncated before the first frame.
    ///
    /// With `arrivedFramesOnly` (a download in progress), a frame whose pixel data is cut off
    /// is left out unless it is the first, so that an animation shows the frames received so
    /// far and never a half-drawn one; the first frame shows as far as its rows have arrived.
    ///
    /// The canvas is the logical screen, grown to take in every frame that reaches past it (a
    /// screen stored as 0 × 0 too), so that no frame loses pixels: Pillow grows its canvas the
    /// same way, frame by frame, so its last frame has this size. Every frame has this size,
    /// and the pixel limit applies to it before any pixel is decoded.
    init(data: Data, options: ImageDecodeOptions, arrivedFramesOnly: Bool = false) throws(ImageCodingError) {
        let file = try GIFFile(data)
        let screen = file.screenSize
        var frames: [GIFFrameInfo] = []
        while let frame = try file.nextFrame() {
            // A frame is LZW-decoded in full even where it is clipped, so its own size counts too.
            if frame.width > 0, frame.height > 0 {
                try options.checkPixelLimit(PixelSize(width: frame.width, height: frame.height))
            }
            frames.append(frame)
        }
        guard !frames.isEmpty else { throw .corrupt(.gif, "the file has no image") }
        let canvas = frames.reduce(screen) { size, frame in
            PixelSize(width: max(size.width, frame.left + frame.width), height: max(size.height, frame.top + frame.height))
        }
        guard canvas.width > 0, canvas.height > 0 else {
            throw .corrupt(.gif, "the canvas is \(canvas) pixels")
        }
        try options.checkPixelLimit(canvas)
        if arrivedFramesOnly, !file.reachedTrailer {
            frames.removeLast(frames.count - max(1, file.framesWithAllData))
        }
        self.data = data
        self.frames = frames
        isWhole = file.reachedTrailer
        canvasSize = canvas
        loopCount = file.loopCount ?? 1
        globalPalette = file.globalPalette
        backgroundIndex = file.backgroundIndex
    }

    /// The delay of frame `index` in seconds (hundredths as stored; 0 when absent).
    func duration(at index: Int) -> TimeInterval {
        frames.indices.contains(index) ? Double(frames[index].control.delay) / 100 : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard frames.indices.contains(index) else {
            throw ImageCodingError.corrupt(.gif, "no frame \(index) in a GIF of \(frames.count) frames")
        }
        // Taken out while it runs: a pass that fails part-way is dropped, and the next
        // request starts over.
        var state: Pass
        if let running = pass.take(), index >= running.nextIndex - 1 {
            state = running
        } else {
            state = Pass(file: try GIFFile(data),
                         compositor: GIFCompositor(size: canvasSize, backgroundIndex: backgroundIndex))
        }
        while state.nextIndex <= index {
            try composite(from: state.file, onto: &state.compositor)
            state.nextIndex += 1
        }
        pass = state
        return state.compositor.canvas
    }

    /// Reads the next frame of `file` and draws it.
    private func composite(from file: GIFFile, onto compositor: inout GIFCompositor) throws(ImageCodingError) {
        guard let frame = try file.nextFrame() else { throw .truncated(.gif) }
        compositor.begin(frame, palette: frame.localPalette ?? globalPalette ?? .grayscale)
        let visible = frame.visibleRect(in: canvasSize)
        let visibleRows = visible.x.isEmpty ? 0 : visible.y.count
        file.readRows(of: frame, visibleRows: visibleRows) { row, indices in
            compositor.draw(row: row, indices: indices, of: frame)
        }
    }
}
