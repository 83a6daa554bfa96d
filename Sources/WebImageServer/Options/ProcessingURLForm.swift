/// Whose URL a request is, imgproxy's or thumbor's: where the two answer a failure with
/// different statuses, a URL is answered as its own server would (``ProcessingError/status(answering:)``).
public enum ProcessingURLForm: Sendable, Hashable {
    /// imgproxy's `/signature/options/plain/source` form.
    case imgproxy
    /// thumbor's `/signature/…/image` form.
    case thumbor
}
