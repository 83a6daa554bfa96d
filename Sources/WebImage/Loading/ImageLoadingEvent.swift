/// What a load reports on its way, in the order it happens: the one event type of every
/// stage. A loader reports ``progress(_:)`` and ``partialImage(_:)``; the manager adds
/// ``cachedImage(_:)`` and, in ``ImageManager/events(for:options:context:)``, ``finished(_:)``.
public enum ImageLoadingEvent: Sendable {
    /// More bytes arrived. Received counts never go down.
    case progress(ImageLoadingProgress)
    /// A partial image of the bytes so far (``Image/isIncomplete`` is set): only for loads with
    /// `progressiveLoad` (``ImageLoaderOptions/progressive``) whose format has a
    /// ``ProgressiveImageCoder``. Partial images are never cached.
    case partialImage(Image)
    /// Under `refreshCached`: the cached image, delivered before the server is asked.
    case cachedImage(ImageResult)
    /// The final result; nothing follows it.
    case finished(ImageResult)
}
