/// Turns every frame grey, keeping alpha: each colour becomes its Rec. 601 luma
/// (`0.299 R + 0.587 G + 0.114 B`, rounded, as Pillow's `convert("L")` computes it).
public struct GrayscaleTransformer: ImageTransformer {
    /// A grayscale transformer; it has no parameters.
    public init() {}

    /// `grayscale`.
    public var key: String { "grayscale" }

    /// Every frame in grey.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        image.mappingFrames { pixels in
            var out = pixels
            out.bytes.withUnsafeMutableBufferPointer { bytes in
                for i in stride(from: 0, to: bytes.count, by: 4) {
                    let luma = (299 * Int(bytes[i]) + 587 * Int(bytes[i + 1]) + 114 * Int(bytes[i + 2]) + 500) / 1000
                    let grey = UInt8(truncatingIfNeeded: luma)
                    bytes[i] = grey
                    bytes[i + 1] = grey
                    bytes[i + 2] = grey
                }
            }
            return out
        }
    }
}

extension ImageTransformer where Self == GrayscaleTransformer {
    /// Turns the image grey, keeping alpha.
    public static var grayscale: GrayscaleTransformer { GrayscaleTransformer() }
}
