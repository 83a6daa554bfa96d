/// A ``Resampler/resize(_:to:filter:linearLight:)`` (without linear light) whose source arrives
/// a band of rows at a time, so that a decoder that produces rows (PNG, JPEG scanlines) can
/// shrink an image without ever holding it at full size: only the rows the filter still needs
/// are kept.
///
/// Feed every source row, top to bottom, with ``append(rows:count:)``, then take the result
/// with ``finish()``. The output is identical to
/// ``Resampler/resize(_:to:filter:linearLight:)`` of the whole source. Not thread-safe: one
/// decoder feeds it.
public final class ResamplingStream {
    /// The size of the source.
    public let sourceSize: PixelSize
    /// The size of the result (each side at least 1).
    public let size: PixelSize
    private let convolution: SeparableConvolution

    /// A stream from a source of `sourceSize` (each side at least 1) to `size`.
    public init(from sourceSize: PixelSize, to size: PixelSize) {
        precondition(sourceSize.width > 0 && sourceSize.height > 0, "the source has no pixels")
        self.sourceSize = sourceSize
        self.size = PixelSize(width: max(1, size.width), height: max(1, size.height))
        convolution = SeparableConvolution(
            horizontal: .lanczos(from: sourceSize.width, to: self.size.width),
            vertical: .lanczos(from: sourceSize.height, to: self.size.height))
    }

    /// Source rows not appended yet.
    public var remainingRows: Int { convolution.remainingRows }

    /// Takes the next `count` source rows: RGBA8, not premultiplied, `sourceSize.width * 4`
    /// bytes a row, back to back.
    public func append(rows: UnsafeRawPointer, count: Int) {
        convolution.append(rows: rows, count: count)
    }

    /// The resized image; every source row must have been appended.
    public func finish() -> PixelBuffer {
        convolution.finish()
    }
}
