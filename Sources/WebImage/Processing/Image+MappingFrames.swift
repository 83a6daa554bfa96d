extension Image {
    /// A copy whose every frame's pixels are `transform` of the original's, keeping durations,
    /// loop count, scale and the other metadata: how a transformer handles an animated image.
    public func mappingFrames(_ transform: (PixelBuffer) -> PixelBuffer) -> Image {
        var copy = self
        copy.frames = frames.map { ImageFrame(pixels: transform($0.pixels), duration: $0.duration) }
        return copy
    }
}
