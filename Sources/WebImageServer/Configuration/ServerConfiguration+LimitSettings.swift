import Foundation

extension ServerConfiguration {
    /// How much work a request may cause: the source and result sizes, frames, the processing slots and their queue (the processor).
    public struct LimitSettings: Sendable, Equatable {
        /// The most megapixels a source may declare, all frames of an animation together (unless
        /// ``maxAnimationFrameResolution`` is set), checked from its header before decoding.
        public var maxSrcResolution = 50.0
        /// The largest source download, in bytes.
        public var maxSrcFileSize = 64 << 20
        /// The most frames of an animated source processed; 1 makes animations still.
        public var maxAnimationFrames = 100
        /// The most megapixels one frame of an animated source may declare; 0 counts every frame
        /// together against ``maxSrcResolution`` instead.
        public var maxAnimationFrameResolution = 0.0
        /// Whether imgproxy URLs may use the security options that change these limits for
        /// themselves (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
        /// `max_animation_frame_resolution`, `max_result_dimension`); otherwise they are 403.
        public var allowSecurityOptions = false
        /// The longest side a result may have (imgproxy's `IMGPROXY_MAX_RESULT_DIMENSION`), the
        /// default of imgproxy URLs' `max_result_dimension`; 0 for no bound.
        public var maxResultDimension = 0
        /// The most megapixels a result may have, all frames together.
        public var maxResultResolution = 50.0
        /// thumbor's `MAX_WIDTH`: the widest a thumbor URL may ask for, and the width a wider source
        /// is shrunk to first (by ``ThumborSourceBound``'s rule); 0 for no bound.
        public var thumborMaxWidth = 0
        /// thumbor's `MAX_HEIGHT`, as ``thumborMaxWidth`` for the height.
        public var thumborMaxHeight = 0
        /// ``thumborMaxWidth`` × ``thumborMaxHeight`` as thumbor URLs are bounded by it, or nil when both are 0.
        public var thumborSourceBound: ThumborSourceBound? {
            thumborMaxWidth > 0 || thumborMaxHeight > 0 ? ThumborSourceBound(width: thumborMaxWidth, height: thumborMaxHeight) : nil
        }
        /// Images processed at once.
        public var concurrency = 2 * ProcessInfo.processInfo.activeProcessorCount
        /// Requests that may wait for processing; more are answered 429.
        public var maxQueue = 1000

        /// The defaults.
        public init() {}
    }
}
