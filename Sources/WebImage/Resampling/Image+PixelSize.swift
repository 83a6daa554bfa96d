extension Image {
    /// ``pixelWidth`` and ``pixelHeight`` together: the size of each frame.
    public var pixelSize: PixelSize { PixelSize(width: pixelWidth, height: pixelHeight) }
}
