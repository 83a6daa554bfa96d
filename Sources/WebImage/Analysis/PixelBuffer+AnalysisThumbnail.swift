extension PixelBuffer {
    /// The buffer shrunk, keeping its aspect ratio, so that neither side is over `maxSide`
    /// pixels (itself when it fits already): what ``BlurHash``, ``ThumbHash`` (which takes no
    /// more than ``ThumbHash/maximumSide``), ``AverageColor``, ``ColorPalette`` and
    /// ``DominantColors`` work on, since their answers do not need more.
    public func analysisThumbnail(maxSide: Int = 100) -> PixelBuffer {
        guard width > maxSide || height > maxSide, maxSide > 0 else { return self }
        return Resampler.resize(self, to: PixelSize(width: width, height: height).fitting(within: PixelSize(width: maxSide, height: maxSide)))
    }
}
