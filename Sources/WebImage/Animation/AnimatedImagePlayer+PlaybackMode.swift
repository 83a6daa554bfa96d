extension AnimatedImagePlayer {
    /// The order frames play in (SDWebImage's `SDAnimatedImagePlaybackMode`).
    public enum PlaybackMode: Sendable, Hashable, CaseIterable {
        /// First to last, then again from the first: 0, 1, …, n−1.
        case normal
        /// Last to first: n−1, …, 1, 0.
        case reversed
        /// There and back: 0, 1, …, n−1, n−2, …, 1. One there-and-back is one loop; the last
        /// loop ends back on frame 0.
        case bounce
        /// Back and there: n−1, …, 0, 1, …, n−2. One back-and-there is one loop; the last
        /// loop ends back on frame n−1.
        case reversedBounce
    }
}
