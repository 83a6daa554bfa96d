extension ImagePrefetcher {
    /// How far a prefetch has come (SDWebImage's prefetcher counts).
    public struct Progress: Sendable, Hashable {
        /// URLs whose load ended, successfully or not.
        public var finished: Int
        /// URLs whose load failed: counted in ``finished`` too.
        public var skipped: Int
        /// URLs asked for.
        public var total: Int

        /// Progress from its counts.
        public init(finished: Int, skipped: Int, total: Int) {
            self.finished = finished
            self.skipped = skipped
            self.total = total
        }

        /// Whether every URL has ended.
        public var isComplete: Bool { finished == total }
    }
}
