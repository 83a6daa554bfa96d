import WebImage

/// A frame reader whose frames carry the file's embedded colour profile: each frame is decoded
/// as stored, then converted to sRGB through ``color`` unless the options keep the stored
/// colours. The conversion and the profile it reports are written once, here, for every such
/// reader.
protocol ColorConvertingFrameReader: AnimatedFrameReader {
    /// The file's profile and what the options ask of it.
    var color: EmbeddedColorProfile { get set }
    /// Frame `index` as stored, before colour conversion.
    func decodedFrame(at index: Int) throws -> PixelBuffer
}

extension ColorConvertingFrameReader {
    var colorProfile: ColorProfile? { color.profileOfPixels }
    var colorProfileWarning: ColorProfileError? { color.warning }

    /// Frame `index`, converted to sRGB through the profile unless the options keep the stored
    /// colours.
    func frame(at index: Int) throws -> PixelBuffer {
        var pixels = try decodedFrame(at: index)
        color.convert(&pixels)
        return pixels
    }
}
