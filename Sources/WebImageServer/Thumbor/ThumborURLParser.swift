import Foundation
import WebImage

/// Parses request paths in thumbor's URL form into ``ProcessingURL`` values carrying the same
/// ``ProcessingOptions`` an imgproxy URL would, so thumbor clients (and libthumbor's signed
/// URLs) work against this server as they do against imagor:
///
/// ```
/// /{unsafe|signature}/[meta/][trim[:top-left|bottom-right][:tolerance]/][AxB:CxD/][[adaptive-][full-]fit-in/][-]W x[-]H/[halign/][valign/][smart/][filters:f(a):g()/]IMAGE
/// ```
///
/// Each part is read in that order and only as a whole segment followed by `/`, as libthumbor's
/// pattern reads it; whatever is left is the image: percent-decoded and, when it names no
/// scheme, read by the ``loader``: `example.com/cat.jpg` as `http://example.com/cat.jpg`, as
/// thumbor's HTTP loader does, or `cat.jpg` as `local:///cat.jpg`, as its file loader does.
///
/// How the parts map, following thumbor's transformer:
/// - `WxH` without `fit-in`: the image is cropped to the box's aspect ratio where `halign`
///   (`left`, `center`, `right`) and `valign` (`top`, `middle`, `bottom`) say, then scaled to
///   exactly W × H, enlarging if need be — imgproxy's `fill` with `enlarge`. A side of 0 follows
///   from the other side's aspect; `0x0` or no size keeps the size.
/// - `fit-in/WxH`: fits inside the box without enlarging — imgproxy's `fit`. `full-fit-in`
///   covers the box instead, enlarging if need be and cropping nothing; `adaptive-` before
///   either swaps W and H when the box is landscape and the source portrait, or the reverse.
/// - `orig` for a side: the source's (after trim and crop), so `origx300` keeps the width.
/// - `trim`: removes the border of the top left (or, with `bottom-right`, the bottom right)
///   pixel's colour first, up to `tolerance` away (per channel, where thumbor measures a colour distance).
/// - `meta`: the answer is thumbor's JSON description (``ProcessingMeta``) instead of the image;
///   `?callback=name` wraps it in a call of `name` (JSONP).
/// - `-W`, `-H`: flip left to right, top to bottom, after the resize.
/// - `AxB:CxD`: a crop of the (upright) source from left A, top B to right C, bottom D, before
///   the resize; an empty rectangle is no crop. A rectangle reaching outside the source keeps its
///   size and is moved inside (imgproxy's crop), where thumbor would cut it at the edge.
/// - `smart`: the crop keeps the most interesting area, found by `SmartCrop` (imgproxy's
///   `g:sm`) in place of the alignment. thumbor finds faces and features with OpenCV detectors;
///   this server scores attention instead (edges, skin tones, saturation), which needs no
///   detector and often lands on the same subject, but not always on the same pixels.
/// - Filters: `quality(q)`, `format(webp|jpeg|jpg|png|gif|avif|heic|heif)` (a name thumbor does not know
///   is ignored; `heic` and `heif` are HEIC), `brightness(n)`, `contrast(n)`, `rgb(r,g,b)`, `saturation(x)`, `noise(n[,seed])`,
///   `equalize()` (`ColorAdjustment`, thumbor's arithmetic, after the resize), `sharpen(amount,
///   radius,luminance_only)` (an unsharp mask of sigma `radius`; amount and luminance_only are
///   read, not honoured), `strip_icc()`, `round_corner(a,r,g,b[,transparent])`, `max_bytes(n)`, `max_age(seconds)` (`Cache-Control: max-age=N,public`;
///   0 is `no-cache` where thumbor sends none), `fill(colour|auto[,bool])` (`auto`: the resized image's mean colour; with
///   `fit-in`, pads to the box, centred; transparent pixels are flattened onto the colour either
///   way), `background_color(colour)`, `blur(radius[,sigma])`, `rotate(multiple of 90)`
///   (counter-clockwise, after the resize), `grayscale()`, `upscale()`, `no_upscale()`,
///   `stretch()`, `strip_exif()`, `watermark(url,x,y,alpha[,w_ratio,h_ratio])` (``ThumborWatermark``,
///   its mark loaded through the same source policy as the image), `fill(blur)` (the canvas filled with the image blurred and
///   stretched), `convolution(w;w;…,columns[,normalize])` (`ConvolutionTransformer`),
///   `focal(LxT:RxB)` (the fill crop centres on the focal areas, anything else ignored as thumbor
///   does), `extract_focal()` (an earlier thumbor URL's crop in the image part becomes the focal
///   area, its image the image), `redeye()` (accepted, changes nothing: thumbor corrects eyes only
///   inside faces its OpenCV detector found). The orientation from the metadata is applied
///   (thumbor's `RESPECT_ORIENTATION`).
///
/// Any other filter is a ``ProcessingURLError/unsupportedFilter(_:)``, and `debug` is a
/// ``ProcessingURLError/unsupportedPart(_:)``: thumbor would skip an unknown filter silently,
/// this server says so rather than answer with another image than the one asked for.
public struct ThumborURLParser: Sendable {
    /// The bounds on path length, filter count and values.
    public var limits: ProcessingURLLimits
    /// How an image part that names no scheme is read.
    public var loader: ThumborLoader
    /// Whether an opaque still PNG is answered in JPEG unless a format is named or chosen from
    /// `Accept` (thumbor's `AUTO_PNG_TO_JPG`); the `autojpg` filter overrides it per URL.
    public var opaquePNGToJPEG: Bool
    /// thumbor's `MAX_WIDTH` × `MAX_HEIGHT`: the most a URL may ask for on each side, and the
    /// bound sources are shrunk to first; nil for none.
    public var sourceBound: ThumborSourceBound?
    /// Whether a source's EXIF copyright tags are kept in results (thumbor's
    /// `PRESERVE_EXIF_COPYRIGHT_INFO`).
    public var preservesCopyright: Bool
    /// Whether JPEG results are written progressive (thumbor's `PROGRESSIVE_JPEG`).
    public var progressiveJPEG: Bool
    /// Whether images are turned upright by their EXIF orientation (thumbor's
    /// `RESPECT_ORIENTATION`; on here by default, off in thumbor).
    public var respectsOrientation = true
    /// Whether a source's EXIF block is kept in results, made true of the result, unless the
    /// `strip_exif` filter says otherwise (thumbor's `PRESERVE_EXIF_INFO`, off by default).
    public var preservesEXIF = false
    /// The quality of each format when the URL's `quality` filter gives none (thumbor's
    /// `WEBP_QUALITY`, `AVIF_QUALITY`, `HEIF_QUALITY`); a format not in it takes the server's quality.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// The server's quality (`--quality`), for a URL whose `quality` filter and
    /// ``formatQuality`` give none: with it, a WebP result of quality 100 is written
    /// losslessly, as thumbor writes it.
    public var defaultQuality = 80

    /// A parser with `limits`, reading images without a scheme with `loader`, writing opaque
    /// PNGs as JPEG when `opaquePNGToJPEG`, bounding sizes and sources by `sourceBound`, keeping
    /// copyright tags when `preservesCopyright` (on by default here, so that both URL forms of
    /// one image share a key; a server passes thumbor's setting, off by default), writing JPEGs
    /// progressive when `progressiveJPEG` (off here for the same reason; thumbor's default is on).
    public init(limits: ProcessingURLLimits = ProcessingURLLimits(), loader: ThumborLoader = .http, opaquePNGToJPEG: Bool = false,
                sourceBound: ThumborSourceBound? = nil, preservesCopyright: Bool = true, progressiveJPEG: Bool = false) {
        self.limits = limits
        self.loader = loader
        self.opaquePNGToJPEG = opaquePNGToJPEG
        self.sourceBound = sourceBound
        self.preservesCopyright = preservesCopyright
        self.progressiveJPEG = progressiveJPEG
    }

    /// The URL `path` (the request target without the host; of the query, only `meta`'s `callback` is read) describes.
    /// ``ProcessingURL/signature`` is the first segment as received (`unsafe` or the signature)
    /// and ``ProcessingURL/signedPath`` everything after it, starting with `/`.
    public func parse(_ path: String) throws(ProcessingURLError) -> ProcessingURL {
        let signed = try SignedPath(path, limits: limits, firstSegment: "unsafe or signature segment")
        var rest = signed.path.dropFirst()
        if rest.hasPrefix("debug/") { throw .unsupportedPart("debug") }
        let meta = Self.take(&rest, Self.one(of: ["meta"])) != nil
        var (request, image) = try read(rest)
        if request.extractsFocal, let earlier = Self.earlierCrop(in: Substring(try Self.decoded(image)), parser: self) {
            request.options.focalRegions.append(earlier.region)
            image = earlier.image
        }
        if meta {
            request.options.meta = ProcessingMeta(callback: try Self.callback(in: path), imageURL: try Self.decoded(image))
            request.options.meta?.flipsHorizontally = request.size.flipsHorizontally
            request.options.meta?.flipsVertically = request.size.flipsVertically
        }
        let (source, fallback) = try imageSources(image)
        var options = request.finished
        // thumbor's engine writes a WebP of quality 100 losslessly.
        options.webpLossless = (options.quality > 0 ? options.quality : formatQuality[.webp] ?? defaultQuality) == 100
        return ProcessingURL(signature: String(signed.signature), signedPath: String(signed.path),
                             options: options, source: source, form: .thumbor, sourceFallback: fallback)
    }

    /// The request the parts after the signature (and `meta`) describe, with the image part as written.
    private func read(_ path: Substring) throws(ProcessingURLError) -> (ThumborRequest, Substring) {
        var rest = path
        var trim: ProcessingTrim?
        if let segment = Self.take(&rest, { $0 == "trim" || $0.hasPrefix("trim:") ? $0 : nil }) {
            trim = try Self.trim(segment)
        }
        var crop: ProcessingCrop?
        if let corners = Self.take(&rest, Self.corners) {
            crop = try Self.crop(corners: corners, limits: limits)
        }
        let mode = Self.take(&rest, Self.one(of: ["fit-in", "adaptive-fit-in", "full-fit-in", "adaptive-full-fit-in"]))
        var size = ThumborSize()
        if let parsed = Self.take(&rest, ThumborSize.init(segment:)) {
            size = try parsed.checked(limits)
        }
        let halign = Self.take(&rest, Self.one(of: ["left", "center", "right"])) ?? "center"
        let valign = Self.take(&rest, Self.one(of: ["top", "middle", "bottom"])) ?? "middle"
        let smart = Self.take(&rest, Self.one(of: ["smart"])) != nil

        let gravity = smart ? Gravity(kind: .smart) : Self.gravity(halign: halign, valign: valign)
        var request = ThumborRequest(mode: mode, size: size, gravity: gravity)
        request.options.opaquePNGToJPEG = opaquePNGToJPEG
        request.options.keepCopyright = preservesCopyright
        request.options.progressiveJPEG = progressiveJPEG
        request.options.autoRotate = respectsOrientation
        request.options.stripMetadata = !preservesEXIF
        request.options.formatQuality = formatQuality
        if let sourceBound {
            // thumbor lowers a size asked past MAX_WIDTH or MAX_HEIGHT to it (`orig` stays the source's).
            request.options.thumborSourceBound = sourceBound
            if sourceBound.width > 0, request.options.width > sourceBound.width { request.options.width = sourceBound.width }
            if sourceBound.height > 0, request.options.height > sourceBound.height { request.options.height = sourceBound.height }
        }
        request.options.crop = crop
        request.options.trim = trim
        if rest.hasPrefix("filters:") {
            let body = rest.dropFirst("filters:".count)
            guard let end = body.dropFirst().range(of: ")/") else {
                throw .invalidArgument(option: "filters", reason: "no \")/\" ends the filter list")
            }
            try request.apply(filters: String(body[..<end.upperBound].dropLast()), parser: self)
            rest = body[end.upperBound...]
        }
        return (request, rest)
    }

    /// thumbor's `extract_focal`: the image part read as an earlier thumbor URL (its host, if
    /// any, dropped; `unsafe` or a signature first), up to 10 URLs deep, until one has a crop
    /// `AxB:CxD`. That crop is the focal region and that URL's image the image; nil when no URL
    /// on the way has a crop.
    private static func earlierCrop(in image: Substring, parser: ThumborURLParser) -> (region: PixelRect, image: Substring)? {
        var url = image
        for _ in 0..<10 {
            // Everything up to the first "/" is the scheme and host (or nothing).
            guard let slash = url.firstIndex(of: "/") else { return nil }
            var rest = url[url.index(after: slash)...]
            if url.hasPrefix("http://") || url.hasPrefix("https://") {
                rest = url.dropFirst(url.hasPrefix("http://") ? 7 : 8)
                guard let hostEnd = rest.firstIndex(of: "/") else { return nil }
                rest = rest[rest.index(after: hostEnd)...]
            }
            guard let signature = take(&rest, { ThumborURLSigner.isSignatureSegment(String($0)) ? $0 : nil }),
                  !signature.isEmpty, let earlier = try? parser.read(rest), !earlier.1.isEmpty else { return nil }
            if let crop = earlier.0.options.crop, let origin = crop.gravity {
                return (PixelRect(x: Int(origin.x), y: Int(origin.y), width: Int(crop.width), height: Int(crop.height)), earlier.1)
            }
            url = earlier.1
        }
        return nil
    }

    /// The JSONP function the query's `callback` names (thumbor's), or nil without one; a name
    /// must be a JavaScript identifier path (letters, digits, `_`, `$`, `.`) of at most 64 bytes.
    private static func callback(in path: String) throws(ProcessingURLError) -> String? {
        guard let query = path.firstIndex(of: "?").map({ path[path.index(after: $0)...] }) else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("callback=") {
            let name = String(pair.dropFirst("callback=".count)).removingPercentEncoding ?? ""
            guard !name.isEmpty, name.utf8.count <= 64, name.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_$.".unicodeScalars.contains($0))
            }) else {
                throw .invalidArgument(option: "callback", reason: "a JSONP callback is letters, digits, \"_\", \"$\" and \".\"")
            }
            return name
        }
        return nil
    }

    /// What `read` makes of the segment at the start of `rest` when that segment is followed by
    /// `/` and `read` makes something of it, the segment then removed from `rest`; nil otherwise.
    private static func take<Part>(_ rest: inout Substring, _ read: (Substring) -> Part?) -> Part? {
        guard let slash = rest.firstIndex(of: "/"), let part = read(rest[..<slash]) else { return nil }
        rest = rest[rest.index(after: slash)...]
        return part
    }

    /// Reads a segment that is one of `words` (`fit-in` and the variants thumbor has beside it,
    /// an alignment, `smart`).
    private static func one(of words: Set<Substring>) -> (Substring) -> Substring? {
        { words.contains($0) ? $0 : nil }
    }

    /// The image part percent-decoded.
    private static func decoded(_ text: Substring) throws(ProcessingURLError) -> String {
        guard !text.isEmpty else { throw .missingPart("image URL") }
        guard let decoded = String(text).removingPercentEncoding else { throw .invalidSource("bad percent-encoding") }
        return decoded
    }

    /// The image URL: percent-decoded, read by the ``loader`` when it starts with no scheme
    /// (the source, and the mark of the `watermark` filter).
    func imageURL(_ text: Substring) throws(ProcessingURLError) -> URL {
        try imageSources(text).url
    }

    /// The image URL as ``imageURL(_:)`` reads it, and the URL fetched when it is a local file
    /// that is missing (the ``loader``'s fallback, if any).
    func imageSources(_ text: Substring) throws(ProcessingURLError) -> (url: URL, fallback: URL?) {
        let decoded = try Self.decoded(text)
        let scheme = decoded.range(of: "://").map { decoded[..<$0.lowerBound] }.flatMap { scheme in
            scheme.first?.isLetter == true
                && scheme.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) }
                ? scheme : nil
        }
        let fallback = loader.fallback(forImage: decoded, scheme: scheme).flatMap { try? SourceURL.parse($0) }
        return (try SourceURL.parse(try loader.source(forImage: decoded, scheme: scheme)), fallback)
    }
}
