/// The player's frame buffer: decoded frames held in the ``AnimatedImage``, at most
/// ``capacity`` of them (the configured bytes over the bytes of a frame, at least one).
///
/// It decodes the next frame ahead while the current one shows; when a frame must be decoded
/// with the buffer full, it first evicts every frame not among the next ``capacity`` steps,
/// so the frames behind go and the ones coming stay.
struct PlaybackFrameBuffer: Sendable {
    let image: AnimatedImage
    let timeline: PlaybackTimeline
    /// The most frames held at once.
    let capacity: Int

    init(image: AnimatedImage, timeline: PlaybackTimeline, maxBufferSize: Int) {
        self.image = image
        self.timeline = timeline
        capacity = max(1, min(image.frameCount, maxBufferSize / max(1, image.frameByteCount)))
    }

    /// The pixels step `position` shows, decoded now unless held.
    func frame(at position: Int) throws(AnimatedImageError) -> PixelBuffer {
        try load(at: position, window: position)
    }

    /// Decodes the frame of the step after `position` ahead of time, if there is room for it
    /// beside the current one.
    func decodeAhead(of position: Int) throws(AnimatedImageError) {
        guard capacity > 1, timeline.contains(position + 1) else { return }
        try load(at: position + 1, window: position)
    }

    /// Evicts all but the frames of the `capacity` steps from `window` when full, then loads
    /// the frame of step `position`.
    @discardableResult
    private func load(at position: Int, window: Int) throws(AnimatedImageError) -> PixelBuffer {
        let index = timeline.frameIndex(at: position)
        let held = image.decodedFrameIndices
        if held.count >= capacity, !held.contains(index) {
            let keep = Set((window..<window + capacity).filter(timeline.contains).map(timeline.frameIndex(at:)))
            image.evictFrames { keep.contains($0) }
        }
        return try image.loadFrame(at: index)
    }
}
