import Foundation
import Locking

/// An animation that keeps its encoded bytes and decodes frames when they are asked for
/// (SDWebImage's `SDAnimatedImage`): a 300-frame GIF costs the bytes of the frames decoded
/// now, not of 300 frames.
///
/// Frame count, loop count, canvas size and durations are read from the container up front.
/// ``frame(at:)`` decodes a frame composited onto the full canvas (any order; the coder's
/// reader replays what it needs), with the file's orientation applied and resized per the
/// decode options. Decoded frames are held only when asked to: ``loadFrame(at:)`` keeps a
/// frame until ``evictFrames(keeping:)`` drops it (the policy an ``AnimatedImagePlayer``'s
/// frame buffer applies), and ``preloadAllFrames()`` keeps all of them for good.
/// ``memoryCost`` is the bytes of the frames held.
///
/// Thread-safe: the reader decodes one frame at a time behind a lock, and the decoded frames
/// sit behind another, so ``memoryCost`` answers without waiting for a decode.
public final class AnimatedImage: Sendable {
    /// The encoded bytes the frames are decoded from; empty for an animation over frames
    /// already decoded (``init(image:)``).
    public let data: Data
    /// The format of ``data``.
    public let format: ImageFormat
    /// Pixels per point (from the decode options' `scaleFactor`).
    public let scale: Double
    /// The EXIF orientation the file declares; the frames have it applied.
    public let orientation: ImageOrientation
    /// The size of every frame: upright, after any thumbnail or scale-down the options ask for.
    public let size: PixelSize
    /// The number of frames.
    public let frameCount: Int
    /// How many times the animation plays: 0 means forever (1 for a GIF without a loop block).
    public let loopCount: Int
    /// Each frame's display time in seconds, under 11 ms counted as 100 ms
    /// (``ImageFrame/playbackDuration(seconds:)``).
    public let durations: [TimeInterval]

    private let reader: Mutex<any AnimatedFrameReader>
    private let decoded = Mutex(DecodedFrames())

    /// An animation over `data`, read by the first coder in `coders` that accepts it and
    /// reads frames lazily; a still image (a JPEG, say) that a coder decodes is a one-frame
    /// animation, as SDWebImage makes one, so that a player shows any image. An SVG is not: a
    /// drawing has no frames (SDWebImage's `SDAnimatedImage imageWithData:` is nil for it).
    ///
    /// Throws ``AnimatedImageError/notAnimatable(_:)`` when no coder decodes the data at all,
    /// or it is an SVG, and ``AnimatedImageError/decoding(_:)`` when the coder rejects it.
    public convenience init(data: Data, coders: ImageCoders = .shared,
                            options: ImageDecodeOptions = ImageDecodeOptions()) throws(AnimatedImageError) {
        if data.isEmpty { throw .decoding(.empty) }
        if ImageFormat(detecting: data) == .svg { throw .notAnimatable(.svg) }
        if let coder = coders.animatedCoder(for: data) {
            try self.init(data: data, coder: coder, options: options)
            return
        }
        let still: Image
        do {
            still = try coders.decode(data, options: options)
        } catch .unsupportedFormat(let format) {
            throw .notAnimatable(format)
        } catch {
            throw .decoding(error)
        }
        self.init(data: data, format: still.format, reader: DecodedFrameReader(still), options: options)
    }

    /// An animation over `data`, read by `coder`.
    public convenience init(data: Data, coder: any AnimatedImageCoder,
                            options: ImageDecodeOptions = ImageDecodeOptions()) throws(AnimatedImageError) {
        let format = ImageFormat(detecting: data)
        let reader: any AnimatedFrameReader
        do {
            reader = try coder.makeFrameReader(for: data, options: options)
        } catch {
            throw .decoding(Self.codingError(error, format: format))
        }
        guard reader.frameCount > 0 else { throw .decoding(.corrupt(format, "no frames")) }
        self.init(data: data, format: format, reader: reader, options: options)
    }

    /// An animation over the frames of `image`, decoded already (a loaded image, say): played
    /// without decoding anything again, at the image's size and scale.
    public convenience init(image: Image) {
        self.init(data: Data(), format: image.format, reader: DecodedFrameReader(image),
                  options: ImageDecodeOptions(scaleFactor: image.scale))
    }

    /// An animation over what `reader` reads, which has at least one frame.
    private init(data: Data, format: ImageFormat, reader: sending any AnimatedFrameReader, options: ImageDecodeOptions) {
        let stored = reader.canvasSize
        let upright = reader.orientation.swapsDimensions
            ? PixelSize(width: stored.height, height: stored.width) : stored
        self.data = data
        self.format = format
        scale = options.scaleFactor
        orientation = reader.orientation
        size = options.targetSize(for: upright, frameCount: reader.frameCount)
        frameCount = reader.frameCount
        loopCount = reader.frameCount > 1 ? reader.loopCount : 1
        durations = (0..<reader.frameCount).map { ImageFrame.playbackDuration(seconds: reader.duration(at: $0)) }
        self.reader = Mutex(reader)
    }

    /// Bytes in one decoded frame.
    public var frameByteCount: Int { size.area * 4 }

    /// Bytes of the pixels of the frames held decoded now.
    public var memoryCost: Int { decoded.withLock { $0.byteCount } }

    /// The indices of the frames held decoded now, ascending.
    public var decodedFrameIndices: [Int] { decoded.withLock { $0.frames.keys.sorted() } }

    /// The most frames held decoded at once since this image was made: what a bounded frame
    /// buffer promises to keep under its limit.
    public var peakDecodedFrameCount: Int { decoded.withLock { $0.peakCount } }

    /// How many times a frame has been decoded (one frame decoded twice counts twice).
    public var decodeCount: Int { decoded.withLock { $0.decodeCount } }

    /// Whether ``preloadAllFrames()`` has decoded and pinned every frame.
    public var isAllFramesLoaded: Bool { decoded.withLock { $0.isPinned } }

    /// Frame `index`: the one held if it is decoded, otherwise decoded now and not kept.
    public func frame(at index: Int) throws(AnimatedImageError) -> PixelBuffer {
        if let held = try heldFrame(at: index) { return held }
        return try decode(at: index)
    }

    /// Frame `index`, decoded now if it is not held, and held until evicted.
    @discardableResult
    public func loadFrame(at index: Int) throws(AnimatedImageError) -> PixelBuffer {
        if let held = try heldFrame(at: index) { return held }
        let pixels = try decode(at: index)
        decoded.withLock { $0.insert(pixels, at: index) }
        return pixels
    }

    /// Drops the held frames for which `keep` returns false; nothing once all frames are
    /// preloaded.
    public func evictFrames(keeping keep: (Int) -> Bool) {
        decoded.withLock { $0.evict(keeping: keep) }
    }

    /// Decodes every frame that is not held yet and keeps them all for good: playback then
    /// never decodes again (SDWebImage's `preloadAllFrames`).
    public func preloadAllFrames() throws(AnimatedImageError) {
        for index in 0..<frameCount { try loadFrame(at: index) }
        decoded.withLock { $0.isPinned = true }
    }

    /// Drops every held frame, preloaded ones too (SDWebImage's `unloadAllFrames`).
    public func unloadAllFrames() {
        decoded.withLock {
            $0.isPinned = false
            $0.evict { _ in false }
        }
    }

    /// The animation as an ``Image``: every frame with its duration and the loop count, or
    /// with `firstFrameOnly` the first frame as a still (the poster). Held frames are reused;
    /// the others are decoded and not kept.
    public func image(firstFrameOnly: Bool = false) throws(AnimatedImageError) -> Image {
        let count = firstFrameOnly ? 1 : frameCount
        var frames: [ImageFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            frames.append(ImageFrame(pixels: try frame(at: index), duration: count > 1 ? durations[index] : 0))
        }
        return Image(frames: frames, scale: scale, format: format, orientation: orientation, loopCount: loopCount)
    }

    private func heldFrame(at index: Int) throws(AnimatedImageError) -> PixelBuffer? {
        guard (0..<frameCount).contains(index) else {
            throw .frameOutOfRange(index: index, frameCount: frameCount)
        }
        return decoded.withLock { $0.frames[index] }
    }

    private func decode(at index: Int) throws(AnimatedImageError) -> PixelBuffer {
        let result = reader.withLock { reader in
            Result { try reader.frame(at: index, orientation: orientation, size: size) }
        }
        decoded.withLock { $0.countDecode() }
        switch result {
        case .success(let pixels): return pixels
        case .failure(let error): throw .decoding(Self.codingError(error, format: format))
        }
    }

    /// `error` as the coders' typed error (coders throw nothing else, but the protocol is untyped).
    private static func codingError(_ error: any Error, format: ImageFormat) -> ImageCodingError {
        error as? ImageCodingError ?? .corrupt(format, "\(error)")
    }
}
