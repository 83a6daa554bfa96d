/// How a lossy encoder samples colour against brightness, where the format lets it choose (JPEG,
/// AVIF): halving chroma makes files smaller and blurs sharp colour edges (red text on blue).
public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable {
    /// The coder's own rule: JPEG halves chroma both ways (4:2:0, as libjpeg does); AVIF keeps
    /// it whole (4:4:4) at quality 0.9 and above, as imgproxy's `auto`.
    case automatic
    /// Chroma at half the resolution both ways (4:2:0).
    case subsampled
    /// Chroma at full resolution (4:4:4).
    case full
}
