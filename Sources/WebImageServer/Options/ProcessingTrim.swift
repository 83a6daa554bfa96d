import WebImage

/// Removing a uniform border before anything else (imgproxy's `trim:%threshold:%colour:%equal_hor:%equal_ver`).
public struct ProcessingTrim: Sendable, Hashable {
    /// How far (0…255, on any channel) a pixel may be from the border colour and still be border.
    public var threshold: Double
    /// The border colour, or nil for the colour of the top left pixel (the bottom right one with ``fromBottomRight``).
    public var colour: RGBA?
    /// Whether the border colour, without ``colour``, is the bottom right pixel's (thumbor's `trim:bottom-right`).
    public var fromBottomRight = false
    /// Whether the left and right edges lose the same amount (the smaller of the two).
    public var equalHorizontal: Bool
    /// Whether the top and bottom edges lose the same amount (the smaller of the two).
    public var equalVertical: Bool

    /// A trim with the given threshold, colour and edge rules.
    public init(threshold: Double, colour: RGBA? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
        self.threshold = threshold
        self.colour = colour
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
    }
}
