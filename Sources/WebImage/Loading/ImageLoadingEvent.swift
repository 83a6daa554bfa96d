/// Something a load reports before it completes.
public enum ImageLoadingEvent: Sendable {
    /// More bytes arrived. Received counts never go down.
    case progress(ImageLoadingProgress)
    /// A partial image of the bytes so far (``Image/isIncomplete`` is set): only for requests with
    /// ``ImageLoaderOptions/progressive`` whose format has a ``ProgressiveImageCoder``.
    /// Partial images must never be cached.
    case partialImage(Image)
}
