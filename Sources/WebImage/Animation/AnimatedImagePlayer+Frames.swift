extension AnimatedImagePlayer {
    /// The frames a player shows, as an `AsyncSequence` (see ``AnimatedImagePlayer/frames``).
    public struct Frames: AsyncSequence, Sendable {
        public typealias Element = Frame
        public typealias Failure = Never

        let engine: PlaybackEngine

        public func makeAsyncIterator() -> Iterator {
            Iterator(subscription: FrameSubscription(engine: engine))
        }

        /// Iterates the frames; the player waits for it before showing the next one (unless
        /// it drops frames).
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = Frame
            public typealias Failure = Never

            let subscription: FrameSubscription

            public mutating func next() async -> Frame? {
                await subscription.engine.nextFrame(for: subscription.id)
            }
        }
    }
}
