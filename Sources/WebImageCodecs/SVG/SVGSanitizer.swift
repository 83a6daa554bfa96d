import Foundation
import WebImage

/// Rewrites an SVG document so that what it may do is draw, reading it once with a small
/// hand-written scanner held to ``SVGLimits`` before any XML parser sees it.
///
/// The writer is an allow-list: it keeps the elements and attributes of SVG that draw and
/// drops everything else, an element with all it holds (`<script>`, `<foreignObject>` and the
/// HTML in it, `<metadata>`, vendors' namespaces). Either way the result has no document type
/// (its plain-text entities expanded in place, see ``SVGLimits``), no comments, no processing
/// instructions (an XML declaration is written anew, naming an ASCII-compatible encoding;
/// `<?xml-stylesheet?>` and the like go), no comments in style sheets, no event-handler
/// attributes (`onload`, `onclick`…) and no attribute whose value is a `javascript:` or
/// `vbscript:` URL (however its characters are written). ``Policy-swift.enum`` says what
/// becomes of URLs. A document that breaks a limit, or is not well-formed enough to scan
/// (a control character, text outside the root element), fails with an ``ImageCodingError``.
public struct SVGSanitizer: Sendable {
    /// What the rewritten document is for.
    public var policy: Policy
    /// The bounds the document is held to.
    public var limits: SVGLimits

    /// A sanitizer for `policy` under `limits`.
    public init(policy: Policy, limits: SVGLimits = SVGLimits()) {
        self.policy = policy
        self.limits = limits
    }

    /// `data` rewritten; throws when it breaks a limit or cannot be scanned. With `style`, a
    /// `<style>` element holding it is the root element's first child (imgproxy's `style`
    /// option), its CSS rewritten as every style sheet is.
    public func sanitize(_ data: Data, prependingStyle style: String? = nil) throws(ImageCodingError) -> Data {
        try rewrite(data, prependingStyle: style).document
    }

    /// `data` rewritten, with how many times a filter primitive may run over its drawing.
    func rewrite(_ data: Data, prependingStyle style: String? = nil) throws(ImageCodingError) -> (document: Data, filterRuns: Int) {
        if data.isEmpty { throw .empty }
        guard data.count <= limits.maxBytes else {
            throw .unsupportedFeature(.svg, "a document of \(data.count) bytes, over the limit of \(limits.maxBytes)")
        }
        var rewriter = SVGRewriter(bytes: [UInt8](data), policy: policy, limits: limits, prependedStyle: style.map { Array($0.utf8) })
        let (document, filterRuns) = try rewriter.run()
        return (Data(document), filterRuns)
    }
}
