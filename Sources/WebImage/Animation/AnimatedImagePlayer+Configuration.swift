extension AnimatedImagePlayer {
    /// How a player plays.
    public struct Configuration: Sendable, Hashable {
        /// The order frames play in.
        public var playbackMode: PlaybackMode
        /// Speed: 2 plays twice as fast, 0.5 half as fast; 0 or less stops the animation
        /// where it is until the rate is positive again.
        public var playbackRate: Double
        /// The most bytes of decoded frames the player's buffer holds (at least one frame):
        /// it decodes the next frame ahead and, when full, evicts the frames that are not
        /// coming up next. With room for every frame nothing is decoded twice.
        public var maxBufferSize: Int
        /// `false` (the default): every frame is shown, so a late clock or a slow consumer
        /// slows the animation down. `true`: frames whose time has passed are skipped to
        /// keep time.
        public var dropsFramesToKeepTime: Bool

        /// 16 MiB: room for four 1024 × 1024 frames.
        public static let defaultMaxBufferSize = 16 << 20

        /// A configuration; the defaults play forwards at normal speed, never skipping frames.
        public init(playbackMode: PlaybackMode = .normal, playbackRate: Double = 1,
                    maxBufferSize: Int = defaultMaxBufferSize, dropsFramesToKeepTime: Bool = false) {
            self.playbackMode = playbackMode
            self.playbackRate = playbackRate
            self.maxBufferSize = maxBufferSize
            self.dropsFramesToKeepTime = dropsFramesToKeepTime
        }
    }
}
