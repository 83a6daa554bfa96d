extension AnimatedImagePlayer {
    /// One frame as the player shows it.
    public struct Frame: Sendable, Hashable {
        /// The frame's index in the animation.
        public let index: Int
        /// The loop it is shown in, from 0.
        public let loop: Int
        /// The composited, upright pixels of the whole canvas.
        public let pixels: PixelBuffer
        /// When it was shown, on the player's clock, since the player was made.
        public let time: Duration
    }
}
