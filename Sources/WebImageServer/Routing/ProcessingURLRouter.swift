import Foundation

/// Reads a request path as an imgproxy or a thumbor URL and checks its signature: the one
/// place a server decides which form a path is in.
///
/// With ``ServedURLFormat/both``, the first segment decides, and nothing else does:
/// - `unsafe`, or 28 characters of URL-safe base64 ending in `=` (possibly sent as `%3D`), is
///   thumbor's: an unsigned URL or an HMAC-SHA1 signature, which thumbor pads;
/// - anything else is imgproxy's: its signatures are never padded, and without a key its
///   placeholder is `insecure` (or `_`, or anything but `unsafe`).
///
/// So an imgproxy deployment whose unsigned URLs say `unsafe` needs ``ServedURLFormat/imgproxy``.
/// A path starting `/info/` is imgproxy's info URL wherever imgproxy's form is served: its
/// options are info options (``ProcessingURLParser/parseInfo(_:)``), its signature an imgproxy one.
/// When any key of a format served is set, every URL must be signed: a URL in a form whose key
/// is not set is refused, so that turning on one form's signing never leaves the other open.
public struct ProcessingURLRouter: Sendable {
    /// The forms answered.
    public let format: ServedURLFormat
    /// Reads imgproxy URLs.
    public let imgproxyParser: ProcessingURLParser
    /// Checks imgproxy signatures.
    public let imgproxySigner: URLSigner
    /// Reads thumbor URLs.
    public let thumborParser: ThumborURLParser
    /// Checks thumbor signatures.
    public let thumborSigner: ThumborURLSigner

    /// A router answering `format`, with a parser and a signer for each form.
    public init(format: ServedURLFormat = .both, imgproxyParser: ProcessingURLParser = ProcessingURLParser(),
                imgproxySigner: URLSigner, thumborParser: ThumborURLParser = ThumborURLParser(),
                thumborSigner: ThumborURLSigner = ThumborURLSigner(key: nil)) {
        self.format = format
        self.imgproxyParser = imgproxyParser
        self.imgproxySigner = imgproxySigner
        self.thumborParser = thumborParser
        self.thumborSigner = thumborSigner
    }

    /// Whether signatures are required: a key is set for a form that is answered.
    public var requiresSignatures: Bool {
        imgproxySigner.isEnabled && format != .thumbor || thumborSigner.isEnabled && format != .imgproxy
    }

    /// Whether imgproxy URLs are answered: the form is served and, when signatures are required,
    /// has its key (otherwise only thumbor URLs get through).
    public var answersImgproxyURLs: Bool {
        format != .thumbor && (imgproxySigner.isEnabled || !requiresSignatures)
    }

    /// The URL `path` describes once its signature is checked: ``ProcessingError/invalidURL(_:)``
    /// when it does not parse, ``ProcessingError/forbidden(_:)`` when the signature is wrong or
    /// missing (``ProcessingError/thumborSignatureRefused(_:)`` for a thumbor URL, as thumbor answers). An imgproxy URL starts from the browser's `clientHints` (thumbor's have none).
    public func route(_ path: String, clientHints: ClientHints? = nil) throws(ProcessingError) -> ProcessingURL {
        if format != .thumbor, path.utf8.starts(with: Self.infoPrefix.utf8) {
            return try routeInfo(String(path.dropFirst(Self.infoPrefix.count - 1)))
        }
        let firstSegment = Self.firstSegment(of: path)
        var isThumbor = switch format {
        case .imgproxy: false
        case .thumbor: true
        case .both: ThumborURLSigner.isSignatureSegment(firstSegment)
        }
        // An unsigned URL where signatures are required is refused before it is read, whatever
        // the rest of the path holds: 403 as imgproxy answers, 400 where only thumbor's URLs are
        // served, as thumbor answers; unless thumbor's `unsafe` URLs are allowed.
        if firstSegment == "unsafe", requiresSignatures, !(thumborSigner.allowsUnsafe && format != .imgproxy) {
            throw format == .thumbor ? .thumborSignatureRefused(URLSignatureError.unsigned.description)
                : .forbidden(URLSignatureError.unsigned.description)
        }
        let url: ProcessingURL
        do throws(ProcessingURLError) {
            if isThumbor {
                do {
                    url = try thumborParser.parse(path)
                } catch where format == .both && answersImgproxyURLs {
                    // `unsafe` is a placeholder imgproxy users write too (imgproxy's own tests do):
                    // a path thumbor's parser refuses is read as imgproxy's before it is refused.
                    guard let imgproxyURL = try? imgproxyParser.parse(path, clientHints: clientHints) else { throw error }
                    url = imgproxyURL
                    isThumbor = false
                }
            } else {
                url = try imgproxyParser.parse(path, clientHints: clientHints)
            }
        } catch {
            throw .invalidURL(error)
        }
        try verify(url, isThumbor: isThumbor)
        return url
    }

    /// Where imgproxy's info URLs start: `/info/{signature}/…`.
    static let infoPrefix = "/info/"

    /// The imgproxy `/info` URL `path` (the part after `/info`) describes, its signature checked
    /// as a processing URL's is.
    private func routeInfo(_ path: String) throws(ProcessingError) -> ProcessingURL {
        let url: ProcessingURL
        do throws(ProcessingURLError) {
            url = try imgproxyParser.parseInfo(path)
        } catch {
            throw .invalidURL(error)
        }
        try verify(url, isThumbor: false)
        return url
    }

    /// Checks the signature of `url`, read as a thumbor URL when `isThumbor`: when its form has
    /// no key, it passes only if no signature is required.
    private func verify(_ url: ProcessingURL, isThumbor: Bool) throws(ProcessingError) {
        guard isThumbor ? thumborSigner.isEnabled : imgproxySigner.isEnabled else {
            guard !requiresSignatures else {
                throw .forbidden("\(isThumbor ? "thumbor" : "imgproxy") URLs are refused: this server has no key for them")
            }
            return
        }
        do throws(URLSignatureError) {
            if isThumbor {
                try thumborSigner.verify(signature: url.signature, for: String(url.signedPath.dropFirst()))
            } else {
                try imgproxySigner.verify(signature: url.signature, for: url.signedPath)
            }
        } catch {
            throw isThumbor ? .thumborSignatureRefused(error.description) : .forbidden(error.description)
        }
    }

    /// The first segment of `path`, percent-decoded.
    static func firstSegment(of path: String) -> String {
        let segment = (path.hasPrefix("/") ? path.dropFirst() : path[...]).prefix { $0 != "/" && $0 != "?" }
        return String(segment).removingPercentEncoding ?? String(segment)
    }
}
