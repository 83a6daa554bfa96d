import WebImage

/// The size arithmetic every stage of processing shares: which way the options turn an image,
/// and the requested box in device pixels. Written once, so that the shrink on load, the
/// transform and the result-size check agree.
extension ProcessingOptions {
    /// Whether the rotation lays the image on its side, so that width and height trade places.
    var rotatesOnSide: Bool { rotation % 180 == 90 }

    /// A source of `size`, stored with `orientation`, as the resize sees it: turned upright
    /// when the orientation is left to undo here (no `auto_rotate`), then by the rotation.
    func turned(_ size: PixelSize, orientation: ImageOrientation) -> PixelSize {
        let swaps = (!autoRotate && orientation.swapsDimensions) != rotatesOnSide
        return swaps ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The requested width and height in device pixels (× ``dpr``, rounded), 0 where not given.
    var requestedDevicePixels: PixelSize {
        PixelSize(width: Int((Double(width) * dpr).rounded()), height: Int((Double(height) * dpr).rounded()))
    }
}
