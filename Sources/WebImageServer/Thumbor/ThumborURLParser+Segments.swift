/// How the segments of a thumbor path before its filters are read: the crop's corners, the
/// trim, the alignment.
extension ThumborURLParser {
    /// `[left, top, right, bottom]` from `AxB:CxD`, or nil when `segment` is not of that shape.
    static func corners(_ segment: Substring) -> [Int]? {
        let pairs = segment.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.split(separator: "x", omittingEmptySubsequences: false) }
        let numbers = pairs.joined()
        guard pairs.count == 2, pairs.allSatisfy({ $0.count == 2 }),
              numbers.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else {
            return nil
        }
        return numbers.compactMap { Int($0) }
    }

    /// The crop from left, top, right and bottom, or nil for an empty rectangle (thumbor skips it).
    static func crop(corners: [Int], limits: ProcessingURLLimits) throws(ProcessingURLError) -> ProcessingCrop? {
        guard corners[0] < corners[2], corners[1] < corners[3] else { return nil }
        guard corners[2] - corners[0] <= limits.maxDimension, corners[3] - corners[1] <= limits.maxDimension else {
            throw .invalidArgument(option: "crop", reason: "a side is over \(limits.maxDimension) pixels")
        }
        return ProcessingCrop(width: Double(corners[2] - corners[0]), height: Double(corners[3] - corners[1]),
                              gravity: Gravity(kind: .northWest, x: Double(corners[0]), y: Double(corners[1])))
    }

    /// The trim `trim[:top-left|bottom-right][:tolerance]` asks for: the border of the top left
    /// (or bottom right) pixel's colour, up to `tolerance` (0…442, thumbor's largest colour
    /// distance, capped at 254 per channel) away.
    static func trim(_ segment: Substring) throws(ProcessingURLError) -> ProcessingTrim {
        var parts = segment.split(separator: ":", omittingEmptySubsequences: false).dropFirst()
        let corner = parts.first.flatMap { $0 == "top-left" || $0 == "bottom-right" ? $0 : nil }
        if corner != nil { parts = parts.dropFirst() }
        guard parts.count <= 1 else {
            throw .invalidArgument(option: "trim", reason: "trim[:top-left|bottom-right][:tolerance]")
        }
        let arguments = OptionArguments(option: "trim", values: Array(parts))
        let tolerance = arguments.has(0) ? try arguments.integer(0, in: 0...442) : 0
        // A pixel up to `tolerance` away is border; the trim's threshold is the first distance that is not.
        var trim = ProcessingTrim(threshold: Double(min(tolerance, 254) + 1))
        trim.fromBottomRight = corner == "bottom-right"
        return trim
    }

    /// The gravity for thumbor's alignments.
    static func gravity(halign: Substring, valign: Substring) -> Gravity {
        let kind: GravityKind = switch (valign, halign) {
        case ("top", "left"): .northWest
        case ("top", "right"): .northEast
        case ("top", _): .north
        case ("bottom", "left"): .southWest
        case ("bottom", "right"): .southEast
        case ("bottom", _): .south
        case (_, "left"): .west
        case (_, "right"): .east
        default: .centre
        }
        return Gravity(kind: kind)
    }
}
