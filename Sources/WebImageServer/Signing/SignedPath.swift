/// A request path split as both URL forms read it: its first segment, the signature (imgproxy's
/// placeholder, thumbor's `unsafe`), and everything after it, starting with `/`, which is what the
/// signature signs. The query is dropped; the length limit is checked first.
struct SignedPath {
    /// The first segment, exactly as received.
    let signature: Substring
    /// Everything after the first segment, starting with `/`, exactly as received.
    let path: Substring

    /// Splits `path`; a missing first segment is reported as `firstSegment` (what the form calls it).
    init(_ path: String, limits: ProcessingURLLimits, firstSegment: String) throws(ProcessingURLError) {
        guard path.utf8.count <= limits.maxPathLength else {
            throw .pathTooLong(length: path.utf8.count, limit: limits.maxPathLength)
        }
        let withoutQuery = path.prefix { $0 != "?" }
        guard withoutQuery.hasPrefix("/") else { throw .missingPart("leading /") }
        let afterSlash = withoutQuery.dropFirst()
        guard let signatureEnd = afterSlash.firstIndex(of: "/"), signatureEnd > afterSlash.startIndex else {
            throw .missingPart(firstSegment)
        }
        signature = afterSlash[..<signatureEnd]
        self.path = afterSlash[signatureEnd...]
    }
}
