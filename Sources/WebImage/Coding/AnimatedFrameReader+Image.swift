extension AnimatedFrameReader {
    /// Reads the frames `options` asks for into an ``Image``: all of them, or the first only;
    /// resized to ``ImageDecodeOptions/targetSize(for:frameCount:)``; durations per the
    /// under-11 ms rule. ``ImageDecodeOptions/maxPixels`` bounds one canvas and also the
    /// pixels of all decoded frames together; ``ImageDecodeOptions/maxFrameCount`` bounds the
    /// frames before any is decoded. The image carries the reader's ``colorProfile`` and
    /// ``colorProfileWarning``.
    public func decodeImage(format: ImageFormat, options: ImageDecodeOptions,
                            orientation: ImageOrientation = .up) throws -> Image {
        try options.checkPixelLimit(canvasSize)
        let count = options.firstFrameOnly ? min(1, frameCount) : frameCount
        guard count > 0 else { throw ImageCodingError.corrupt(format, "no frames") }
        if let limit = options.maxFrameCount, count > limit { throw ImageCodingError.tooManyFrames(count: count, limit: limit) }
        let upright = orientation.swapsDimensions
            ? PixelSize(width: canvasSize.height, height: canvasSize.width) : canvasSize
        let target = options.targetSize(for: upright, frameCount: count)
        // Every frame is held at once: the limit covers their sum, so a small file with many
        // frames on a large canvas cannot ask for gigabytes.
        try options.checkPixelLimit(PixelSize(width: target.width, height: target.height * count))
        var frames: [ImageFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            let pixels = try frame(at: index, orientation: orientation, size: target)
            let duration = count > 1 ? ImageFrame.playbackDuration(seconds: duration(at: index)) : 0
            frames.append(ImageFrame(pixels: pixels, duration: duration))
        }
        var image = Image(frames: frames, scale: options.scaleFactor, format: format,
                          orientation: orientation, loopCount: loopCount,
                          colorProfile: colorProfile)
        image.colorProfileWarning = colorProfileWarning
        return image
    }

    /// Frame `index` made ready to show: `orientation` applied, then resized to `size` when
    /// it differs from the upright canvas.
    public func frame(at index: Int, orientation: ImageOrientation, size: PixelSize) throws -> PixelBuffer {
        var pixels = try frame(at: index)
        if orientation != .up { pixels = pixels.applying(orientation) }
        if pixels.size != size {
            pixels = Resampler.resize(pixels, to: size)
        }
        return pixels
    }
}
