/// Where thumbor's `watermark` filter puts its mark along one side of the image: its `x` or `y`
/// argument.
public enum ThumborWatermarkPosition: Sendable, Hashable {
    /// `30` or `-30`: that many pixels from the left (top), or, with a minus sign (`-0` too),
    /// from the right (bottom) edge to the mark's far edge.
    case pixels(Int, fromEnd: Bool)
    /// `10p` or `-10p`: a percentage of the image's side, rounded half up, then as ``pixels(_:fromEnd:)``.
    case percent(Int, fromEnd: Bool)
    /// `center`: centred, rounded towards the near edge.
    case center
    /// `repeat`: copies spread over the whole side, as thumbor counts and spaces them.
    case `repeat`

    /// The position `text` spells (`-?digits`, `-?digitsp`, `center` or `repeat`), the number
    /// at most `limit`; nil for any other spelling.
    init?(_ text: Substring, limit: Int) {
        switch text {
        case "center": self = .center
        case "repeat": self = .repeat
        default:
            let fromEnd = text.hasPrefix("-")
            var digits = fromEnd ? text.dropFirst() : text
            let isPercent = digits.hasSuffix("p")
            if isPercent { digits = digits.dropLast() }
            guard !digits.isEmpty, digits.utf8.count <= 9, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let value = Int(digits), value <= limit else { return nil }
            self = isPercent ? .percent(value, fromEnd: fromEnd) : .pixels(fromEnd ? -value : value, fromEnd: fromEnd)
        }
    }

    /// How the canonical cache key spells it: `30`, `-0`, `10p`, `-10p`, `center`, `repeat`.
    var canonical: String {
        switch self {
        case let .pixels(value, fromEnd): fromEnd && value == 0 ? "-0" : "\(value)"
        case let .percent(value, fromEnd): (fromEnd ? "-" : "") + "\(value)p"
        case .center: "center"
        case .repeat: "repeat"
        }
    }
}
