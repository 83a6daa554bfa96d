import CAVIF
import WebImage

/// Decoded YUV planes converted to RGBA8 by libavif (libyuv underneath), for the decoders
/// whose pictures are YUV: AV1 in AVIF, HEVC in HEIF image sequences.
enum YUVConversion {
    /// The pixels of `image`, whose planes and colour fields are set, at `size`. Deeper
    /// samples with full chroma are converted at 16 bits and rounded to 8 (libavif's direct
    /// 8-bit output is up to 3 levels off the rounded references); subsampled chroma keeps
    /// that direct path, through libyuv, whose chroma upsampling the references of 4:2:0
    /// files (Pillow's) follow, where libavif's own 16-bit upsampling is up to 5 off them.
    /// A conversion libavif refuses throws what `failure` makes of its result.
    static func rgba(of image: UnsafeMutablePointer<avifImage>, size: PixelSize,
                     failure: (avifResult) -> ImageCodingError) throws(ImageCodingError) -> PixelBuffer {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        let subsampled = image.pointee.yuvFormat == AVIF_PIXEL_FORMAT_YUV420 || image.pointee.yuvFormat == AVIF_PIXEL_FORMAT_YUV422
        let deep = image.pointee.depth > 8 && !subsampled
        rgb.depth = deep ? 16 : 8
        let bytesPerPixel = deep ? 8 : 4
        let (byteCount, overflow) = size.area.multipliedReportingOverflow(by: bytesPerPixel)
        guard !overflow, let rowBytes = UInt32(exactly: size.width * bytesPerPixel) else {
            throw .tooManyPixels(width: size.width, height: size.height, limit: Int(UInt32.max))
        }
        rgb.rowBytes = rowBytes
        guard deep else {
            var pixels = [UInt8](repeating: 0, count: byteCount)
            let result = pixels.withUnsafeMutableBufferPointer { buffer in
                rgb.pixels = buffer.baseAddress
                return avifImageYUVToRGB(image, &rgb)
            }
            guard result == AVIF_RESULT_OK else { throw failure(result) }
            return PixelBuffer(width: size.width, height: size.height, bytes: pixels)
        }
        let samples = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 2)
        defer { samples.deallocate() }
        rgb.pixels = samples.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let result = avifImageYUVToRGB(image, &rgb)
        guard result == AVIF_RESULT_OK else { throw failure(result) }
        return RGBASamples.pixels(UnsafeRawPointer(samples.baseAddress!), stride: Int(rowBytes),
                                  width: size.width, height: size.height, channels: 4, bitDepth: 16)
    }
}
