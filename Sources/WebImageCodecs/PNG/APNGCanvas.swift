import WebImage

/// The canvas an APNG is composited on: draws frames per their blend operation and applies
/// each frame's disposal before the next one is drawn.
struct APNGCanvas {
    /// What the canvas shows: the last frame drawn, composited.
    private(set) var pixels: PixelBuffer
    /// The disposal of the last frame drawn, done before the next one is drawn.
    private var pendingDisposal: (disposal: APNGFrame.Disposal, region: PixelRect, saved: [UInt8])?

    /// A transparent canvas of `size`.
    init(size: PixelSize) {
        pixels = PixelBuffer(width: size.width, height: size.height)
    }

    /// Disposes of the previous frame, then draws `frame` (the pixels of `control.region`).
    /// The first frame of an animation has nothing to restore: its `previous` disposal acts
    /// as `background`, as the APNG spec and Pillow say.
    mutating func draw(_ frame: PixelBuffer, as control: APNGFrame, isFirst: Bool) {
        if let pending = pendingDisposal {
            switch pending.disposal {
            case .none: break
            case .background: clear(pending.region)
            case .previous: write(pending.saved, to: pending.region)
            }
        }
        var disposal = control.disposal
        if isFirst && disposal == .previous { disposal = .background }
        let saved = disposal == .previous ? read(control.region) : []
        switch control.blend {
        case .source: write(frame.bytes, to: control.region)
        case .over: composite(frame, onto: control.region)
        }
        pendingDisposal = (disposal, control.region, saved)
    }

    /// Applies `body` to each row of `region`: the canvas row's bytes and the byte offset of
    /// the region's row in a buffer of the region's own size.
    private mutating func forEachRow(of region: PixelRect,
                                     _ body: (UnsafeMutableBufferPointer<UInt8>, Int) -> Void) {
        let stride = pixels.bytesPerRow, rowBytes = region.width * 4
        pixels.bytes.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<region.height {
                let start = (region.y + row) * stride + region.x * 4
                body(UnsafeMutableBufferPointer(rebasing: canvas[start ..< start + rowBytes]), row * rowBytes)
            }
        }
    }

    private mutating func clear(_ region: PixelRect) {
        forEachRow(of: region) { row, _ in row.update(repeating: 0) }
    }

    private mutating func write(_ source: [UInt8], to region: PixelRect) {
        source.withUnsafeBufferPointer { source in
            forEachRow(of: region) { row, offset in
                _ = row.update(fromContentsOf: source[offset ..< offset + row.count])
            }
        }
    }

    private mutating func read(_ region: PixelRect) -> [UInt8] {
        var copy = [UInt8](repeating: 0, count: region.width * region.height * 4)
        copy.withUnsafeMutableBufferPointer { copy in
            forEachRow(of: region) { row, offset in
                _ = UnsafeMutableBufferPointer(rebasing: copy[offset ..< offset + row.count])
                    .update(fromContentsOf: row)
            }
        }
        return copy
    }

    /// Porter-Duff "over" on non-premultiplied RGBA, rounded to the nearest value, as the APNG
    /// spec and browsers composite. Over an opaque pixel the colour is
    /// `(src * a + dst * (255 - a)) / 255`, what Pillow computes too; Pillow's alpha differs:
    /// it pastes the frame through its alpha as a mask, every channel alpha included, so a
    /// frame at alpha 128 over an opaque canvas leaves alpha 191 there, where this gives 255.
    private mutating func composite(_ frame: PixelBuffer, onto region: PixelRect) {
        frame.bytes.withUnsafeBufferPointer { source in
            forEachRow(of: region) { row, offset in
                for i in stride(from: 0, to: row.count, by: 4) {
                    let sa = UInt32(source[offset + i + 3])
                    if sa == 0 { continue }
                    if sa == 255 {
                        for c in 0..<4 { row[i + c] = source[offset + i + c] }
                        continue
                    }
                    let da = UInt32(row[i + 3])
                    let dstWeight = da * (255 - sa)
                    let alpha255 = sa * 255 + dstWeight
                    for c in 0..<3 {
                        let mixed = UInt32(source[offset + i + c]) * sa * 255 + UInt32(row[i + c]) * dstWeight
                        row[i + c] = UInt8((mixed + alpha255 / 2) / alpha255)
                    }
                    row[i + 3] = UInt8((alpha255 + 127) / 255)
                }
            }
        }
    }
}
