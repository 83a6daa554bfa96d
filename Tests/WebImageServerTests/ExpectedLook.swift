import WebImage
import WebImageTestSupport

/// What a browser's screenshot of an image must look like: a reference picture, compared in
/// averages over 4 × 4 blocks, so that the noise of lossy encodings (the source JPEG's, the
/// server's AVIF) cancels out while a colour shift or a turned picture stays whole.
struct ExpectedLook {
    /// The picture, at the image's pixel size, opaque as a screenshot is.
    let reference: PixelBuffer
    /// The largest mean difference allowed between the block averages (see ``PixelDifference``).
    let tolerance: Double

    /// The side of the blocks averaged.
    static let block = 4

    /// How far `screenshot` is from ``reference``, in block averages; nil when the sizes differ.
    func difference(from screenshot: PixelBuffer) -> PixelDifference? {
        guard screenshot.width == reference.width, screenshot.height == reference.height else { return nil }
        return PixelDifference(screenshot.blockAverages(Self.block), reference.blockAverages(Self.block))
    }
}

extension PixelBuffer {
    /// These pixels composited onto an opaque `background`, as a page shows them on it.
    func flattened(onto background: RGBA) -> PixelBuffer {
        var flat = self
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = Int(bytes[i + 3])
            for (c, under) in [background.r, background.g, background.b].enumerated() {
                flat.bytes[i + c] = UInt8((Int(bytes[i + c]) * alpha + Int(under) * (255 - alpha) + 127) / 255)
            }
            flat.bytes[i + 3] = 255
        }
        return flat
    }

    /// The mean of each `side` × `side` block, channel by channel (a partial block at the right
    /// or bottom edge is left out).
    func blockAverages(_ side: Int) -> PixelBuffer {
        let (columns, rows) = (width / side, height / side)
        var averages = [UInt8](repeating: 0, count: columns * rows * 4)
        for row in 0..<rows {
            for column in 0..<columns {
                for c in 0..<4 {
                    var sum = 0
                    for y in row * side..<(row + 1) * side {
                        for x in column * side..<(column + 1) * side { sum += Int(bytes[(y * width + x) * 4 + c]) }
                    }
                    averages[(row * columns + column) * 4 + c] = UInt8((sum + side * side / 2) / (side * side))
                }
            }
        }
        return PixelBuffer(width: columns, height: rows, bytes: averages)
    }
}
