import Foundation

/// A coder that reads an ``ImageHeader`` without decoding pixels. Coders that read frame by
/// frame (``AnimatedImageCoder``) need not adopt it: their frame reader knows the header.
public protocol ImageHeaderReading: ImageCoder {
    /// The header of `data`, or an ``ImageCodingError`` when it is not readable.
    func readHeader(_ data: Data) throws -> ImageHeader
}
