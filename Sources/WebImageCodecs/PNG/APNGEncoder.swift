import Foundation
import WebImage

/// Writes an animated PNG: every frame full-canvas, drawn with `blend_op` source and kept
/// with `dispose_op` none, its image data compressed by libpng.
enum APNGEncoder {
    /// Encodes `frames` (all of one size) playing `loopCount` times (0 = forever), with an
    /// `iCCP` chunk for `profile` when there is one.
    static func encode(_ frames: [ImageFrame], loopCount: Int, profile: ColorProfile? = nil) throws -> [UInt8] {
        let first = frames[0].pixels
        guard frames.allSatisfy({ $0.pixels.width == first.width && $0.pixels.height == first.height }) else {
            throw ImageCodingError.encodingFailed(.png, "the frames of an animation must all have the same size")
        }
        let keepAlpha = frames.contains { $0.pixels.hasTransparency }
        var writer = PNGWriter()
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let png = try LibPNG.encode(frame.pixels, keepAlpha: keepAlpha)
            try png.withUnsafeBytes { file in
                let chunks = try PNGChunkList(file)
                if index == 0 {
                    let header = chunks.chunks[0]
                    writer.append(chunk: file[header.bytes])
                    if let profile { writer.append(.iCCP, try PNGColorProfile.chunkData(for: profile)) }
                    var control: [UInt8] = []
                    control.append(bigEndian: UInt32(frames.count))
                    control.append(bigEndian: UInt32(clamping: loopCount))
                    writer.append(.acTL, control)
                }
                writer.append(.fcTL, frameControl(sequence: sequence, size: first, duration: frame.duration))
                sequence += 1
                for chunk in chunks.chunks where chunk.type == .IDAT {
                    if index == 0 {
                        writer.append(chunk: file[chunk.bytes])
                    } else {
                        var number: [UInt8] = []
                        number.append(bigEndian: sequence)
                        writer.append(.fdAT, prefix: number, file[chunk.data])
                        sequence += 1
                    }
                }
            }
        }
        writer.append(.IEND, [])
        return writer.bytes
    }

    /// The 26 bytes of an `fcTL` chunk for a full-canvas frame shown `duration` seconds.
    private static func frameControl(sequence: UInt32, size: PixelBuffer, duration: TimeInterval) -> [UInt8] {
        var control: [UInt8] = []
        control.append(bigEndian: sequence)
        control.append(bigEndian: UInt32(size.width))
        control.append(bigEndian: UInt32(size.height))
        control.append(bigEndian: UInt32(0))
        control.append(bigEndian: UInt32(0))
        control.append(bigEndian: UInt16(clamping: Int((duration * 1000).rounded())))
        control.append(bigEndian: UInt16(1000))
        control += [APNGFrame.Disposal.none.rawValue, APNGFrame.Blend.source.rawValue]
        return control
    }
}
