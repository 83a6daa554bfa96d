/// Which tiers of a cache an operation touches, or where a query's answer came from
/// (SDWebImage's `SDImageCacheType`).
public enum ImageCacheType: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No tier: for a query, skip the cache; for a result, the image was not cached.
    case none
    /// The memory tier only.
    case memory
    /// The disk tier only.
    case disk
    /// Memory and disk.
    case all

    /// Whether this includes the memory tier.
    public var includesMemory: Bool { self == .memory || self == .all }
    /// Whether this includes the disk tier.
    public var includesDisk: Bool { self == .disk || self == .all }

    public var description: String {
        switch self {
        case .none: "none"
        case .memory: "memory"
        case .disk: "disk"
        case .all: "all"
        }
    }
}
