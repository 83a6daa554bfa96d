/// The server's source limits as one URL overrides them with imgproxy's security options
/// (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
/// `max_animation_frame_resolution`), which a server reads only with `--allow-security-options`.
/// Each nil keeps the server's setting.
public struct SourceLimitOverrides: Sendable, Hashable {
    /// The most megapixels the source may declare, all frames together.
    public var maxSrcResolution: Double?
    /// The largest source, in bytes; the download itself stays within the server's
    /// `--max-src-file-size`, so a larger value changes nothing.
    public var maxSrcFileSize: Int?
    /// The most frames of an animated source processed.
    public var maxAnimationFrames: Int?
    /// The most megapixels one frame may declare; 0 counts all frames together.
    public var maxAnimationFrameResolution: Double?

    /// No overrides.
    public init() {}

    /// Whether the URL overrides no limit.
    public var isEmpty: Bool { self == SourceLimitOverrides() }

    /// The canonical key's part, `sl:R:S:F:FR` with `-` for a limit not overridden.
    var canonical: String {
        func spell(_ value: Double?) -> String { value.map(CanonicalNumber.spell) ?? "-" }
        return "sl:\(spell(maxSrcResolution)):\(maxSrcFileSize.map(String.init) ?? "-"):\(maxAnimationFrames.map(String.init) ?? "-")"
            + ":\(spell(maxAnimationFrameResolution))"
    }
}
