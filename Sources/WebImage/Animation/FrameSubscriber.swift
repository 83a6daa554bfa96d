/// One iterator of ``AnimatedImagePlayer/frames``, as the player sees it.
struct FrameSubscriber {
    /// The iterator's task, waiting in `next()` for the next frame.
    var waiting: CheckedContinuation<AnimatedImagePlayer.Frame?, Never>?
    /// A frame shown while the iterator was not waiting, handed out by its next `next()`.
    var pending: AnimatedImagePlayer.Frame?
}
