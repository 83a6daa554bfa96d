import Foundation
import WebImage

/// Reads the frames of a PNG: the one image of a still PNG, or the composited frames of an
/// APNG, in any order (an earlier frame than the last one read replays from frame 0).
///
/// Opening parses the chunks and the `IHDR` only; no pixels are allocated until a frame is read.
/// Each frame's region is converted to sRGB through the `iCCP` profile before it is composited.
final class PNGFrameReader: AnimatedFrameReader {
    /// The file.
    private let data: Data
    private let header: PNGHeader
    /// The animation, or nil for a still image (or an APNG whose animation chunks are broken).
    private let animation: APNGAnimation?
    /// Whether the file reached its `IEND`: false for a download still arriving (or a cut file).
    let isWhole: Bool
    /// The orientation the file's `eXIf` chunk states.
    let orientation: ImageOrientation
    /// The `iCCP` profile and what to do with it; every decoded frame region goes through it.
    private var color: EmbeddedColorProfile
    /// The composited canvas after frame ``shown``.
    private var canvas: APNGCanvas?
    private var shown = -1

    /// Reads the chunks of `data`; throws when it is not a PNG or its `IHDR` is bad. Frames
    /// come out in sRGB, or as stored, as `options` say. With `arrivedFramesOnly` (a download
    /// in progress) an APNG offers the frames whose data has arrived whole.
    init(data: Data, options: ImageDecodeOptions, arrivedFramesOnly: Bool = false) throws {
        if data.isEmpty { throw ImageCodingError.empty }
        self.data = data
        (header, animation, orientation, color, isWhole) = try data.withUnsafeBytes { file in
            let chunks = try PNGChunkList(file)
            let header = try PNGHeader(chunks, in: file)
            let animation = try APNGAnimation.read(chunks, header: header, in: file, arrivedFramesOnly: arrivedFramesOnly)
            let color = EmbeddedColorProfile(samples: header.samples, management: options.colorManagement) {
                () throws(ColorProfileError) in try PNGColorProfile.read(chunks, in: file)
            }
            return (header, animation, chunks.exifOrientation(in: file), color, chunks.ending == .end)
        }
    }

    var colorProfile: ColorProfile? { color.profileOfPixels }
    var colorProfileWarning: ColorProfileError? { color.warning }

    var canvasSize: PixelSize { header.size }
    var frameCount: Int { animation?.frames.count ?? 1 }
    var loopCount: Int { animation?.loopCount ?? 1 }

    func duration(at index: Int) -> TimeInterval {
        guard let animation, animation.frames.indices.contains(index) else { return 0 }
        return animation.frames[index].duration
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard (0..<frameCount).contains(index) else {
            throw ImageCodingError.corrupt(.png, "no frame \(index) in an image of \(frameCount) frames")
        }
        guard let animation else { return try decodeDefaultImage() }
        var drawn: APNGCanvas
        if let kept = canvas, index >= shown {
            drawn = kept
        } else {
            drawn = APNGCanvas(size: canvasSize)
            shown = -1
        }
        // Drop the stored canvas while drawing, so that its pixels are not shared (and copied).
        canvas = nil
        defer { canvas = drawn }
        while shown < index {
            let frame = animation.frames[shown + 1]
            drawn.draw(try decode(frame, of: animation), as: frame, isFirst: shown == -1)
            shown += 1
        }
        return drawn.pixels
    }

    /// The still image shrunk to what `options` ask for, decoded a band of rows at a time into
    /// the resampler so that its full-size pixels are never held, and the result converted
    /// through the `iCCP` profile; `nil` when that does not apply
    /// (an animation, an EXIF orientation, no shrinking, an interlaced file) and the image must
    /// be decoded whole.
    func decodeShrunkStill(options: ImageDecodeOptions) throws -> Image? {
        guard animation == nil, orientation == .up else { return nil }
        try options.checkPixelLimit(canvasSize)
        let target = options.targetSize(for: canvasSize)
        guard target.width <= canvasSize.width, target.height <= canvasSize.height, target != canvasSize else {
            return nil
        }
        let transform = color.transform()
        guard let pixels = try data.withUnsafeBytes({
            try LibPNG.decode($0, size: header.size, converting: transform, resampledTo: target)
        }) else { return nil }
        var image = Image(frames: [ImageFrame(pixels: pixels)], scale: options.scaleFactor, format: .png)
        color.label(&image)
        return image
    }

    private func decodeDefaultImage() throws -> PixelBuffer {
        var pixels = try data.withUnsafeBytes { try LibPNG.decode($0, size: header.size) }
        color.convert(&pixels)
        return pixels
    }

    /// Decodes the pixels of `frame`'s region: the file itself for the default image,
    /// otherwise a PNG made of the frame's data.
    private func decode(_ frame: APNGFrame, of animation: APNGAnimation) throws -> PixelBuffer {
        guard case .frameData(let parts) = frame.source else { return try decodeDefaultImage() }
        let size = PixelSize(width: frame.region.width, height: frame.region.height)
        let png = data.withUnsafeBytes { animation.png(ofFrameData: parts, size: size, header: header, in: $0) }
        var pixels = try png.withUnsafeBytes { try LibPNG.decode($0, size: size) }
        color.convert(&pixels)
        return pixels
    }
}
