/// Where a crop is anchored in the image (imgproxy's gravity types).
public enum GravityKind: String, Sendable, Hashable, CaseIterable {
    /// The centre (`ce`), the default.
    case centre = "ce"
    /// The top edge (`no`).
    case north = "no"
    /// The bottom edge (`so`).
    case south = "so"
    /// The right edge (`ea`).
    case east = "ea"
    /// The left edge (`we`).
    case west = "we"
    /// The top right corner (`noea`).
    case northEast = "noea"
    /// The top left corner (`nowe`).
    case northWest = "nowe"
    /// The bottom right corner (`soea`).
    case southEast = "soea"
    /// The bottom left corner (`sowe`).
    case southWest = "sowe"
    /// The most interesting part of the image, as imgproxy's libvips smart crop picks it (`sm`).
    case smart = "sm"
    /// A focus point given as fractions of the width and height (`fp:x:y`).
    case focusPoint = "fp"
}
