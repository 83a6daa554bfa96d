import Foundation
import WebImage

/// Parses request paths in thumbor's URL form into ``ProcessingURL`` values carrying the same
/// ``ProcessingOptions`` an imgproxy URL would, so thumbor clients (and libthumbor's signed
/// URLs) work against this server as they do against imagor:
///
/// ```
/// /{unsafe|signature}/[AxB:CxD/][fit-in/][-]W x[-]H/[halign/][valign/][smart/][filters:f(a):g()/]IMAGE
/// ```
///
/// Each part is read in that order and only as a whole segment followed by `/`, as libthumbor's
/// pattern reads it; whatever is left is the image: percent-decoded, with `http://` put in front
/// when it names no scheme (`example.com/cat.jpg`), as thumbor's HTTP loader does.
///
/// How the parts map, following thumbor's transformer:
/// - `WxH` without `fit-in`: the image is cropped to the box's aspect ratio where `halign`
///   (`left`, `center`, `right`) and `valign` (`top`, `middle`, `bottom`) say, then scaled to
///   exactly W × H, enlarging if need be — imgproxy's `fill` with `enlarge`. A side of 0 follows
///   from the other side's aspect; `0x0` or no size keeps the size.
/// - `fit-in/WxH`: fits inside the box without enlarging — imgproxy's `fit`.
/// - `-W`, `-H`: flip left to right, top to bottom, after the resize.
/// - `AxB:CxD`: a crop of the (upright) source from left A, top B to right C, bottom D, before
///   the resize; an empty rectangle is no crop. A rectangle reaching outside the source keeps its
///   size and is moved inside (imgproxy's crop), where thumbor would cut it at the edge.
/// - `smart`: accepted and falls back to the alignment, which is what thumbor does without
///   detectors configured (its default).
/// - Filters: `quality(q)`, `format(webp|jpeg|jpg|png|gif|avif)`, `fill(colour[,bool])` (with
///   `fit-in`, pads to the box, centred; transparent pixels are flattened onto the colour either
///   way), `background_color(colour)`, `blur(radius[,sigma])`, `rotate(multiple of 90)`
///   (counter-clockwise, after the resize), `grayscale()`, `upscale()`, `no_upscale()`,
///   `stretch()`, `strip_exif()`. The orientation from the metadata is applied (thumbor's
///   `RESPECT_ORIENTATION`).
///
/// Any other filter is a ``ProcessingURLError/unsupportedFilter(_:)``, and `trim`, `meta`,
/// `debug`, `full-fit-in`, `adaptive-fit-in` and `orig` sizes are
/// ``ProcessingURLError/unsupportedPart(_:)``: thumbor would skip an unknown filter silently,
/// this server says so rather than answer with another image than the one asked for.
public struct ThumborURLParser: Sendable {
    /// The bounds on path length, filter count and values.
    public var limits: ProcessingURLLimits

    /// A parser with `limits`.
    public init(limits: ProcessingURLLimits = ProcessingURLLimits()) {
        self.limits = limits
    }

    /// The URL `path` (the request target without the host; a query is ignored) describes.
    /// ``ProcessingURL/signature`` is the first segment as received (`unsafe` or the signature)
    /// and ``ProcessingURL/signedPath`` everything after it, starting with `/`.
    public func parse(_ path: String) throws(ProcessingURLError) -> ProcessingURL {
        guard path.utf8.count <= limits.maxPathLength else {
            throw .pathTooLong(length: path.utf8.count, limit: limits.maxPathLength)
        }
        let withoutQuery = path.prefix { $0 != "?" }
        guard withoutQuery.hasPrefix("/") else { throw .missingPart("leading /") }
        let afterSlash = withoutQuery.dropFirst()
        guard let signatureEnd = afterSlash.firstIndex(of: "/"), signatureEnd > afterSlash.startIndex else {
            throw .missingPart("unsafe or signature segment")
        }
        var rest = afterSlash[afterSlash.index(after: signatureEnd)...]
        for part in ["debug", "meta"] where rest.hasPrefix(part + "/") {
            throw .unsupportedPart(part)
        }
        if Self.take(&rest, where: { $0 == "trim" || $0.hasPrefix("trim:") }) != nil {
            throw .unsupportedPart("trim")
        }
        var crop: ProcessingCrop?
        if let segment = Self.take(&rest, where: { Self.corners($0) != nil }) {
            crop = try Self.crop(corners: Self.corners(segment) ?? [], limits: limits)
        }
        var fitIn = false
        if let mode = Self.take(&rest, where: { Self.fitInModes.contains($0) }) {
            guard mode == "fit-in" else { throw .unsupportedPart(String(mode)) }
            fitIn = true
        }
        var size = ThumborSize()
        if let segment = Self.take(&rest, where: { ThumborSize(segment: $0) != nil }), let parsed = ThumborSize(segment: segment) {
            size = try parsed.checked(limits)
        }
        let halign = Self.take(&rest, where: { ["left", "center", "right"].contains($0) }) ?? "center"
        let valign = Self.take(&rest, where: { ["top", "middle", "bottom"].contains($0) }) ?? "middle"
        _ = Self.take(&rest, where: { $0 == "smart" })

        var request = ThumborRequest(fitIn: fitIn, size: size, gravity: Self.gravity(halign: halign, valign: valign))
        request.options.crop = crop
        if rest.hasPrefix("filters:") {
            let body = rest.dropFirst("filters:".count)
            guard let end = body.dropFirst().range(of: ")/") else {
                throw .invalidArgument(option: "filters", reason: "no \")/\" ends the filter list")
            }
            try request.apply(filters: String(body[..<end.upperBound].dropLast()), limits: limits)
            rest = body[end.upperBound...]
        }
        return ProcessingURL(signature: String(afterSlash[..<signatureEnd]), signedPath: String(afterSlash[signatureEnd...]),
                             options: request.finished, source: try Self.source(rest))
    }

    /// `fit-in` and the variants thumbor has beside it, of which only `fit-in` is implemented.
    private static let fitInModes: Set<Substring> = ["fit-in", "adaptive-fit-in", "full-fit-in", "adaptive-full-fit-in"]

    /// The segment at the start of `rest` when it is followed by `/` and `matches`, removed from `rest`.
    private static func take(_ rest: inout Substring, where matches: (Substring) -> Bool) -> Substring? {
        guard let slash = rest.firstIndex(of: "/"), matches(rest[..<slash]) else { return nil }
        defer { rest = rest[rest.index(after: slash)...] }
        return rest[..<slash]
    }

    /// `[left, top, right, bottom]` from `AxB:CxD`, or nil when `segment` is not of that shape.
    private static func corners(_ segment: Substring) -> [Int]? {
        let pairs = segment.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = pairs.flatMap { $0.split(separator: "x", omittingEmptySubsequences: false) }
        guard pairs.count == 2, numbers.count == 4,
              numbers.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else {
            return nil
        }
        return numbers.compactMap { Int($0) }
    }

    /// The crop from left, top, right and bottom, or nil for an empty rectangle (thumbor skips it).
    private static func crop(corners: [Int], limits: ProcessingURLLimits) throws(ProcessingURLError) -> ProcessingCrop? {
        guard corners.count == 4, corners[0] < corners[2], corners[1] < corners[3] else { return nil }
        guard corners[2] - corners[0] <= limits.maxDimension, corners[3] - corners[1] <= limits.maxDimension else {
            throw .invalidArgument(option: "crop", reason: "a side is over \(limits.maxDimension) pixels")
        }
        return ProcessingCrop(width: Double(corners[2] - corners[0]), height: Double(corners[3] - corners[1]),
                              gravity: Gravity(kind: .northWest, x: Double(corners[0]), y: Double(corners[1])))
    }

    /// The gravity for thumbor's alignments.
    private static func gravity(halign: Substring, valign: Substring) -> Gravity {
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

    /// The image URL: percent-decoded, `http://` added when it starts with no scheme.
    private static func source(_ text: Substring) throws(ProcessingURLError) -> URL {
        guard !text.isEmpty else { throw .missingPart("image URL") }
        guard let decoded = String(text).removingPercentEncoding else { throw .invalidSource("bad percent-encoding") }
        let scheme = decoded.range(of: "://").map { decoded[..<$0.lowerBound] } ?? ""
        let hasScheme = scheme.first?.isLetter == true
            && scheme.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) }
        return try ProcessingURLParser.sourceURL(hasScheme ? decoded : "http://" + decoded)
    }
}
