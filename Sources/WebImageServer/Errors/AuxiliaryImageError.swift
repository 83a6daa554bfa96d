/// Why the watermark or the fallback image could not be loaded at start: the server does not
/// start without an image it was told to use.
public struct AuxiliaryImageError: Error, Sendable, CustomStringConvertible {
    /// Which image: `watermark` or `fallback image`.
    public let role: String
    /// What went wrong, without the file's path.
    public let reason: String

    /// `the watermark could not be loaded: …`.
    public var description: String { "the \(role) could not be loaded: \(reason)" }
}
