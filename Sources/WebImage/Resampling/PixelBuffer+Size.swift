extension PixelBuffer {
    /// Width and height together.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
