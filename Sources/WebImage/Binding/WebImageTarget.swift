/// Anything that shows an image for a URL: SDWebImage's `UIImageView` category, without UIKit.
///
/// A target keeps a ``WebImageTargetState`` (running loads, current URL, hooks) and shows
/// what the binding hands it. Load through ``webImage``:
///
/// ```swift
/// final class Thumbnail: WebImageTarget {
///     let webImageState = WebImageTargetState()
///     func setImage(_ image: Image?) { … }
/// }
/// thumbnail.webImage.setImage(with: url, placeholder: blank)
/// ```
public protocol WebImageTarget: AnyObject, Sendable {
    /// The binding's storage for this target. Keep one for the target's whole life: when the
    /// target goes away, the state cancels its loads.
    var webImageState: WebImageTargetState { get }
    /// Shows `image`, or nothing for `nil`. Called on the state's ``WebImageTargetState/queue``.
    func setImage(_ image: Image?)
}

extension WebImageTarget {
    /// Loads images into this target: `target.webImage.setImage(with: url)`.
    public var webImage: WebImageBinding<Self> { WebImageBinding(target: self) }
}
