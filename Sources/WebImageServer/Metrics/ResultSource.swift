/// Where a processed image came from, for logs and metrics.
public enum ResultSource: String, Sendable, Hashable {
    /// The result cache in memory.
    case memory
    /// The result cache on disk.
    case disk
    /// The cache shared with other instances (``ImageProcessor/sharedCache``): made by another.
    case shared
    /// Made for this request: loaded, transformed and encoded.
    case made
    /// Made for another request asking for the same result at the same time, and shared.
    case coalesced
}
