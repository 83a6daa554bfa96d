import WebImage

extension ProcessingTransformer {
    /// The sizes a frame goes through once prepared (turned, trimmed, cropped): the one plan
    /// both the dry run (``outputSize(for:)``, before any pixel is decoded) and the making
    /// (`transform`) follow, so that the size refused is the size that would have been made.
    struct FramePlan {
        /// The prepared frame shrunk as thumbor's source bound shrinks the whole source.
        let bounded: PixelSize
        /// The resize, its crop, the canvases and the padding, from ``bounded``.
        let resize: ResizePlan
        /// The output: the canvas turned as the options say after the resize, then framed by
        /// thumbor's `frame` filters.
        let output: PixelSize
    }

    /// The plan of a frame whose preparation kept `prepared` of a `source` frame.
    func plan(prepared: PixelSize, of source: PixelSize) -> FramePlan {
        let bounded = bounded(prepared, of: source)
        let resize = ResizePlan(options: options, source: bounded)
        let canvas = resize.canvas
        var output = options.postResizeOrientation.swapsDimensions ? PixelSize(width: canvas.height, height: canvas.width) : canvas
        for (overlay, image) in zip(options.thumborOverlays, thumborMarks) {
            if case .frame = overlay, let patch = NinePatch(image) { output = NinePatchFrameTransformer(patch: patch).framedSize(of: output) }
        }
        return FramePlan(bounded: bounded, resize: resize, output: output)
    }

    /// `size` (a part of a `source` frame, once trimmed and cropped) scaled as thumbor's
    /// ``ProcessingOptions/thumborSourceBound`` shrinks the whole source: thumbor shrinks first
    /// and crops after, in the shrunk source's pixels.
    private func bounded(_ size: PixelSize, of source: PixelSize) -> PixelSize {
        guard let shrunk = options.thumborSourceBound?.shrunk(source) else { return size }
        return PixelSize(width: Double(size.width) * Double(shrunk.width) / Double(source.width),
                         height: Double(size.height) * Double(shrunk.height) / Double(source.height))
    }
}
