import CGIF
import Foundation
import WebImage

/// Writes GIF89a with giflib's streaming encoder: every frame full-canvas with its own
/// palette (``GIFIndexedFrame``), its delay in hundredths of a second, and for an animation a
/// NETSCAPE2.0 block holding the loop count as stored (0 = forever).
///
/// Frames are already composited, so an animation with transparency disposes each frame to
/// the background (transparent) before the next: a transparent pixel then shows nothing
/// rather than the frame before.
struct GIFEncoder {
    /// The largest width or height GIF can store.
    static let maxDimension = 65535

    /// What to encode.
    let options: ImageEncodeOptions

    /// `image` as GIF bytes: every frame, or only the first with ``ImageEncodeOptions/firstFrameOnly``.
    func encode(_ image: Image) throws(ImageCodingError) -> Data {
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let width = image.pixelWidth, height = image.pixelHeight
        guard (1...Self.maxDimension).contains(width), (1...Self.maxDimension).contains(height) else {
            throw .encodingFailed(.gif, "\(width)x\(height) is outside GIF's 1…\(Self.maxDimension) pixels a side")
        }
        guard frames.allSatisfy({ $0.pixels.width == width && $0.pixels.height == height }) else {
            throw .encodingFailed(.gif, "animation frames differ in size")
        }
        let sink = GIFByteSink()
        var error: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), writeGIFBytes, &error) else {
            throw .encodingFailed(.gif, Self.describe(error))
        }
        do {
            try write(frames, loopCount: image.loopCount, to: file)
        } catch {
            EGifCloseFile(file, nil)
            throw error
        }
        guard EGifCloseFile(file, &error) == GIF_OK else { throw .encodingFailed(.gif, Self.describe(error)) }
        return withExtendedLifetime(sink) { Data(sink.bytes) }
    }

    private func write(_ frames: [ImageFrame], loopCount: Int,
                       to file: UnsafeMutablePointer<GifFileType>) throws(ImageCodingError) {
        let width = frames[0].pixels.width, height = frames[0].pixels.height
        EGifSetGifVersion(file, true)
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil), file)
        let animated = frames.count > 1
        if animated { try putLoopCount(loopCount, file) }
        let disposal = animated && frames.contains { $0.pixels.hasTransparency } ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT
        for frame in frames {
            let indexed = GIFIndexedFrame(frame.pixels)
            var control = GraphicsControlBlock(
                DisposalMode: disposal, UserInputFlag: false,
                DelayTime: Int32(min(max((frame.duration * 100).rounded(), 0), 65535)),
                TransparentColor: Int32(indexed.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var extensionBytes = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), file)
            guard let map = Self.colourMap(indexed) else { throw .encodingFailed(.gif, "out of memory") }
            defer { GifFreeMapObject(map) }
            try check(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map), file)
            try indexed.withRows(width: width) { row throws(ImageCodingError) in
                try check(EGifPutLine(file, row, Int32(width)), file)
            }
        }
    }

    /// The NETSCAPE2.0 application extension: sub-block 1 holds the loop count, little-endian.
    private func putLoopCount(_ loopCount: Int, _ file: UnsafeMutablePointer<GifFileType>) throws(ImageCodingError) {
        let count = UInt16(clamping: loopCount)
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), file)
        try check(EGifPutExtensionBlock(file, 11, Array("NETSCAPE2.0".utf8)), file)
        try check(EGifPutExtensionBlock(file, 3, [1, UInt8(count & 0xFF), UInt8(count >> 8)]), file)
        try check(EGifPutExtensionTrailer(file), file)
    }

    /// A giflib colour map of the frame's palette (and transparent entry), padded with black
    /// to the power of two GIF requires.
    private static func colourMap(_ frame: GIFIndexedFrame) -> UnsafeMutablePointer<ColorMapObject>? {
        let used = frame.palette.count + (frame.transparentIndex == nil ? 0 : 1)
        var size = 2
        while size < used { size *= 2 }
        var colours = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for (i, c) in frame.palette.enumerated() { colours[i] = GifColorType(Red: c.r, Green: c.g, Blue: c.b) }
        return GifMakeMapObject(Int32(size), colours)
    }

    private func check(_ result: Int32, _ file: UnsafeMutablePointer<GifFileType>) throws(ImageCodingError) {
        guard result == GIF_OK else { throw .encodingFailed(.gif, Self.describe(file.pointee.Error)) }
    }

    private static func describe(_ code: Int32) -> String {
        guard let message = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: message)
    }
}

extension GIFIndexedFrame {
    /// Calls `body` with each row of indices in turn, as giflib's `EGifPutLine` takes them.
    fileprivate func withRows(
        width: Int, _ body: (UnsafeMutablePointer<GifPixelType>) throws(ImageCodingError) -> Void
    ) throws(ImageCodingError) {
        var rows = indices
        try rows.withUnsafeMutableBufferPointer { buffer throws(ImageCodingError) in
            for start in stride(from: 0, to: buffer.count, by: width) { try body(buffer.baseAddress! + start) }
        }
    }
}
