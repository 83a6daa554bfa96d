import Foundation
import WebImage

/// Placeholder until the JPEG coder lands: declines every input.
public struct JPEGCoder: ImageCoder {
    public init() {}
    public func canDecode(_ data: Data) -> Bool { false }
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        throw ImageCodingError.unsupportedFormat(ImageFormat(detecting: data))
    }
    public func canEncode(_ format: ImageFormat) -> Bool { false }
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw ImageCodingError.noEncoder(format)
    }
}
