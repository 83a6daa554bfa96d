import Foundation
import WebImage

/// The animation of an APNG: its frames in display order, read from the `acTL`, `fcTL` and
/// `fdAT` chunks with every length and offset checked.
///
/// Frames follow Pillow (whose frames the conformance references are): when the default image
/// (`IDAT`) is not part of the animation — no `fcTL` before it — it is frame 0, shown alone,
/// and the animation's frames follow.
struct APNGAnimation: Sendable {
    /// The frames, at least one.
    let frames: [APNGFrame]
    /// Plays: 0 = forever (`num_plays`).
    let loopCount: Int
    /// Whole chunks (`PLTE`, `tRNS`) every frame's image needs in front of its data.
    let sharedChunks: [Range<Int>]

    /// Reads the animation of a complete file; `nil` when the file has no `acTL` before its
    /// image data, more than one `acTL`, or animation chunks that contradict each other (then
    /// the file shows as its still default image, as the APNG spec asks and browsers do). An
    /// `fcTL` may come before the `acTL`.
    ///
    /// Throws ``ImageCodingError/truncated(_:)`` for an animation whose bytes end before `IEND`,
    /// unless `arrivedFramesOnly` (a download in progress): then the animation holds the
    /// frames whose data has arrived whole, those closed by the next frame's `fcTL` (`nil`
    /// while there are none).
    static func read(_ chunks: PNGChunkList, header: PNGHeader, in bytes: UnsafeRawBufferPointer,
                     arrivedFramesOnly: Bool = false) throws(ImageCodingError) -> APNGAnimation? {
        var parser = Parser(canvas: header.size, bytes: bytes)
        for chunk in chunks.chunks {
            guard parser.read(chunk) else { return nil }
        }
        guard let declared = parser.declaredFrames, parser.sawImageData else { return nil }
        switch chunks.ending {
        case .end:
            guard parser.finishFrame() else { return nil }
        case .truncated:
            guard arrivedFramesOnly else { throw .truncated(.png) }
        case .malformed:
            throw .corrupt(.png, "a chunk states an impossible length")
        }
        var animated = parser.frames
        guard animated.count >= declared || (arrivedFramesOnly && !animated.isEmpty) else { return nil }
        animated.removeLast(max(0, animated.count - declared))
        if case .frameData = animated[0].source {
            // Shown alone: its disposal clears the canvas, so the animation starts on a
            // transparent canvas as the APNG spec says.
            let whole = PixelRect(x: 0, y: 0, width: header.size.width, height: header.size.height)
            animated.insert(APNGFrame(region: whole, duration: 0, disposal: .background, blend: .source,
                                      source: .defaultImage), at: 0)
        }
        return APNGAnimation(frames: animated, loopCount: parser.plays, sharedChunks: parser.shared)
    }

    /// The chunk-by-chunk state of ``read(_:header:in:)``.
    private struct Parser {
        let canvas: PixelSize
        let bytes: UnsafeRawBufferPointer
        var declaredFrames: Int?
        var plays = 0
        var sawImageData = false
        var shared: [Range<Int>] = []
        var frames: [APNGFrame] = []
        /// The frame whose `fcTL` was read last, and the data found for it so far.
        var open: (control: FrameControl, data: [Range<Int>], isDefaultImage: Bool)?

        init(canvas: PixelSize, bytes: UnsafeRawBufferPointer) {
            self.canvas = canvas
            self.bytes = bytes
        }

        /// Takes in one chunk; false when it breaks the animation's rules.
        mutating func read(_ chunk: PNGChunk) -> Bool {
            switch chunk.type {
            case .acTL:
                // A second acTL makes the animation invalid (the APNG suite's reference shows
                // the default image); one after the image data does not make an APNG.
                guard declaredFrames == nil else { return false }
                guard !sawImageData else { return true }
                guard chunk.length == 8 else { return false }
                let count = bytes.bigEndianUInt32(at: chunk.data.lowerBound)
                guard (1...0x7FFF_FFFF).contains(count) else { return false }
                declaredFrames = Int(count)
                plays = Int(bytes.bigEndianUInt32(at: chunk.data.lowerBound + 4))
            case .PLTE, .tRNS:
                if !sawImageData { shared.append(chunk.bytes) }
            case .IDAT:
                sawImageData = true
            case .fcTL:
                // It may come before the acTL: only the acTL's place (before IDAT) is ruled.
                guard chunk.length == 26, finishFrame(),
                      let control = FrameControl(bytes, at: chunk.data.lowerBound, canvas: canvas)
                else { return false }
                if !sawImageData {
                    // The default image is the first frame: it must fill the canvas.
                    guard frames.isEmpty, control.region == PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
                    else { return false }
                }
                open = (control, [], !sawImageData)
            case .fdAT:
                guard declaredFrames != nil else { return true }
                guard sawImageData, let current = open, !current.isDefaultImage, chunk.length >= 4 else { return false }
                open?.data.append(chunk.data.lowerBound + 4 ..< chunk.data.upperBound)
            default:
                break
            }
            return true
        }

        /// Adds the open frame, if any, to ``frames``; false when it has no image data.
        mutating func finishFrame() -> Bool {
            guard let current = open else { return true }
            open = nil
            let source: APNGFrame.Source
            if current.isDefaultImage {
                source = .defaultImage
            } else {
                guard !current.data.isEmpty else { return false }
                source = .frameData(current.data)
            }
            let c = current.control
            frames.append(APNGFrame(region: c.region, duration: c.duration, disposal: c.disposal,
                                    blend: c.blend, source: source))
            return true
        }
    }

    /// The fields of one `fcTL` chunk, checked against the canvas.
    private struct FrameControl {
        let region: PixelRect
        let duration: TimeInterval
        let disposal: APNGFrame.Disposal
        let blend: APNGFrame.Blend

        /// Reads the 26 bytes at `offset`; nil when the region leaves the canvas or an
        /// operation is unknown.
        init?(_ bytes: UnsafeRawBufferPointer, at offset: Int, canvas: PixelSize) {
            let width = Int(bytes.bigEndianUInt32(at: offset + 4)), height = Int(bytes.bigEndianUInt32(at: offset + 8))
            let x = Int(bytes.bigEndianUInt32(at: offset + 12)), y = Int(bytes.bigEndianUInt32(at: offset + 16))
            guard width > 0, height > 0, x + width <= canvas.width, y + height <= canvas.height,
                  let disposal = APNGFrame.Disposal(rawValue: bytes[offset + 24]),
                  let blend = APNGFrame.Blend(rawValue: bytes[offset + 25])
            else { return nil }
            let numerator = bytes.bigEndianUInt16(at: offset + 20), denominator = bytes.bigEndianUInt16(at: offset + 22)
            region = PixelRect(x: x, y: y, width: width, height: height)
            duration = Double(numerator) / Double(denominator == 0 ? 100 : denominator)
            self.disposal = disposal
            self.blend = blend
        }
    }
}
