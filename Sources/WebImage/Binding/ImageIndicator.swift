/// Shows that a target's image is loading (SDWebImage's `SDWebImageIndicator`): a spinner or
/// a progress bar. Its methods run on the target's ``WebImageTargetState/queue``.
public protocol ImageIndicator: Sendable {
    /// A load started.
    func startAnimating()
    /// The load ended, with an image or without.
    func stopAnimating()
    /// Part of the download arrived: `fraction` in 0…1.
    func updateProgress(_ fraction: Double)
}
