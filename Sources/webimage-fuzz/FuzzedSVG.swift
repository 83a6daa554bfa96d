import Foundation
import WebImage
import WebImageCodecs

/// Runs SVG's two paths over fuzzed bytes: ``SVGCoder`` (the scan, then librsvg drawing the
/// rewrite) through ``FuzzedDecoding``, and ``SVGSanitizer`` rewriting for serving. Bad input
/// must end in an ``ImageCodingError``; a rewrite must itself scan again, as the server's
/// answer is read back from its caches.
struct FuzzedSVG {
    /// The fuzzed bytes.
    let data: Data

    /// The decode's outcome, then the serving rewrite's.
    func run() -> String {
        let decoded = FuzzedDecoding(coder: SVGCoder(), format: .svg, data: data).run()
        let sanitizer = SVGSanitizer(policy: .serving)
        do {
            let served = try sanitizer.sanitize(data)
            do {
                _ = try sanitizer.sanitize(served)
            } catch {
                invariant(false, "the serving rewrite does not scan again: \(error)")
            }
            return "\(decoded); served \(served.count) bytes"
        } catch {
            return "\(decoded); not served: \(error)"
        }
    }
}
