/// How far a JPEG thumbnail streamed into the resampler may be from the DCT-scaled decode
/// resized: it is decoded in draft mode (chroma replicated instead of interpolated, the fast
/// integer IDCT), as Pillow's `draft` decodes for thumbnails, and the resampler averages most of
/// the difference away. Measured: at most 11 levels on a sharp edge and 0.7 on average over
/// the corpus files these tests read; the limits leave some room above that.
enum JPEGDraft {
    /// The largest difference of one channel of one pixel.
    static let maximumDifference = 16
    /// The mean absolute difference over all channels.
    static let meanDifference = 1.0
}
