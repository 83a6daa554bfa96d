import Foundation

/// The encoded images a result lays over its source, fetched before its processing slot is
/// taken: thumbor's overlays (marks, nine-patches) in order, and imgproxy's `watermark_url` image.
struct OverlayImages: Sendable {
    /// The images of ``ProcessingOptions/thumborOverlays``, in the same order.
    var thumbor: [Data] = []
    /// The image of ``ProcessingOptions/watermarkURL``, or nil for none.
    var watermark: Data?
    /// The `watermark_url` image of each of ``ProcessingOptions/chained``, in order (nil for one without).
    var chained: [Data?] = []
}
