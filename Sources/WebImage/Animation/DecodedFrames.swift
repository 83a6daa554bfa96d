/// The frames an ``AnimatedImage`` holds decoded, with the figures its memory cost and the
/// frame buffer's bound are checked against.
struct DecodedFrames {
    /// Decoded pixels by frame index.
    private(set) var frames: [Int: PixelBuffer] = [:]
    /// The most frames held at once since the image was made.
    private(set) var peakCount = 0
    /// How many frames have been decoded in all (a frame decoded twice counts twice).
    private(set) var decodeCount = 0
    /// Whether every frame is held and kept (``AnimatedImage/preloadAllFrames()``).
    var isPinned = false

    /// Bytes of the pixels held.
    var byteCount: Int { frames.values.reduce(0) { $0 + $1.bytes.count } }

    /// Records that a frame was decoded.
    mutating func countDecode() {
        decodeCount += 1
    }

    /// Holds `pixels` as frame `index`.
    mutating func insert(_ pixels: PixelBuffer, at index: Int) {
        frames[index] = pixels
        peakCount = max(peakCount, frames.count)
    }

    /// Drops every frame for which `keep` is false, unless the frames are pinned.
    mutating func evict(keeping keep: (Int) -> Bool) {
        guard !isPinned else { return }
        frames = frames.filter { keep($0.key) }
    }
}
