import CWebP
import WebImage

extension ImageCodingError {
    /// The typed error for a libwebp decoding status other than `VP8_STATUS_OK`.
    static func webp(_ status: VP8StatusCode) -> ImageCodingError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED: .truncated(.webp)
        case VP8_STATUS_UNSUPPORTED_FEATURE: .unsupportedFeature(.webp, "libwebp reports an unsupported feature")
        case VP8_STATUS_OUT_OF_MEMORY: .corrupt(.webp, "libwebp ran out of memory")
        case VP8_STATUS_INVALID_PARAM: .corrupt(.webp, "libwebp rejected the decoding parameters")
        default: .corrupt(.webp, "libwebp reports a bitstream error")
        }
    }
}

/// Reading the bitstream features (size, alpha, animation) that decide how to decode.
enum WebPFeatures {
    /// The features of the WebP bytes in `bytes`, or the typed error libwebp's status maps to.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(ImageCodingError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .empty }
        let status = WebPGetFeatures(base.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw .webp(status) }
        guard features.width > 0, features.height > 0 else {
            throw .corrupt(.webp, "image has no pixels (\(features.width)x\(features.height))")
        }
        return features
    }
}
