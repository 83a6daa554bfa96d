/// Which corners of a rectangle a round-corner transformer rounds (SDWebImage's `SDRectCorner`).
public struct RectCorners: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The corners as bits.
    public let rawValue: UInt8

    /// Corners from their bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The top-left corner.
    public static let topLeft = RectCorners(rawValue: 1 << 0)
    /// The top-right corner.
    public static let topRight = RectCorners(rawValue: 1 << 1)
    /// The bottom-left corner.
    public static let bottomLeft = RectCorners(rawValue: 1 << 2)
    /// The bottom-right corner.
    public static let bottomRight = RectCorners(rawValue: 1 << 3)
    /// Every corner.
    public static let all: RectCorners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

    /// `all`, or the corners joined by `+` (`topLeft+bottomRight`), as transformer keys spell them.
    public var description: String {
        if self == .all { return "all" }
        let names: [(RectCorners, String)] = [
            (.topLeft, "topLeft"), (.topRight, "topRight"), (.bottomLeft, "bottomLeft"), (.bottomRight, "bottomRight"),
        ]
        let chosen = names.filter { contains($0.0) }.map(\.1)
        return chosen.isEmpty ? "none" : chosen.joined(separator: "+")
    }
}
