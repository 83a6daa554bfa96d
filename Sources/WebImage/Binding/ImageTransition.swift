/// How a target takes on a newly loaded image (SDWebImage's `SDWebImageTransition`): a fade, a
/// flip, or anything else the target can animate. Without a transition the binding calls
/// ``WebImageTarget/setImage(_:)``.
///
/// A transition runs for finished downloads only (not for partial images), unless the load
/// has the `forceTransition` option, which runs it for cache hits too.
public struct ImageTransition: Sendable {
    /// Shows `image` on `target`; runs on the target's ``WebImageTargetState/queue``.
    public let apply: @Sendable (_ target: any WebImageTarget, _ image: Image) -> Void

    /// A transition that shows images with `apply`.
    public init(_ apply: @escaping @Sendable (_ target: any WebImageTarget, _ image: Image) -> Void) {
        self.apply = apply
    }
}
