import CAVIF
import Foundation
import WebImage

/// The frames of one AVIF file (a still is a one-frame sequence), decoded by libavif on demand.
///
/// Owns a copy of the file's bytes (libavif reads them in place, without copying, for as long as
/// the decoder lives) and the `avifDecoder`, together in a ``DecoderInput``.
/// Frames are full canvases: AVIF sequences have no disposal or blending.
final class AVIFFrameReader: ColorConvertingFrameReader {
    let canvasSize: PixelSize
    let frameCount: Int
    /// libavif 0.11 does not expose the `edts` repetition count, so sequences loop forever,
    /// as browsers play them.
    let loopCount = 0
    /// The `irot`/`imir` boxes as the EXIF orientation that displays the frames upright.
    let orientation: ImageOrientation
    /// The `colr` ICC profile and the code points of the `nclx` box or the AV1 sequence
    /// header, for colour management.
    let colorSpace: EmbeddedColorSpace
    /// The ICC profile and what to do with it; every frame returned goes through it.
    var color: EmbeddedColorProfile

    private let input: DecoderInput<UnsafeMutablePointer<avifDecoder>>
    private var bytes: UnsafeRawBufferPointer { input.bytes }
    private var decoder: UnsafeMutablePointer<avifDecoder> { input.decoder }

    /// Parses the container of `data`; throws ``ImageCodingError`` if it is not a readable
    /// AVIF or its frames would exceed the pixel limit of `options`.
    init(data: Data, options: ImageDecodeOptions) throws {
        if data.isEmpty { throw ImageCodingError.empty }
        let input = try DecoderInput(copying: data, create: { avifDecoderCreate() }, destroy: { avifDecoderDestroy($0) },
                                     failure: .corrupt(.avif, "libavif could not create a decoder"))
        (canvasSize, frameCount, orientation, colorSpace) = try Self.parse(input.bytes, with: input.decoder, options: options)
        color = EmbeddedColorProfile(iccDataOfRGBA: colorSpace.iccProfile, management: options.colorManagement)
        self.input = input
    }

    /// Reads the container: canvas size, frame count and orientation, with the limits checked.
    private static func parse(_ bytes: UnsafeRawBufferPointer, with decoder: UnsafeMutablePointer<avifDecoder>,
                              options: ImageDecodeOptions) throws -> (PixelSize, Int, ImageOrientation, EmbeddedColorSpace) {
        // Accept what Pillow accepts: files without `pixi` (libheif ≤ 1.11) or with an odd `clap`.
        decoder.pointee.strictFlags &= ~(AVIF_STRICT_CLAP_VALID.rawValue | AVIF_STRICT_PIXI_REQUIRED.rawValue)
        try check(avifDecoderSetIOMemory(decoder, bytes.baseAddress, bytes.count), decoder, bytes)
        try check(avifDecoderParse(decoder), decoder, bytes)
        guard let image = decoder.pointee.image?.pointee else {
            throw ImageCodingError.corrupt(.avif, "libavif parsed no image")
        }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        let count = Int(decoder.pointee.imageCount)
        guard size.width > 0, size.height > 0 else {
            throw ImageCodingError.corrupt(.avif, "image has no pixels (\(size))")
        }
        guard count > 0 else { throw ImageCodingError.corrupt(.avif, "no frames") }
        try options.checkPixelLimit(size)
        // The AV1 decoder (dav1d) then refuses a frame larger than the container admits to
        // before allocating it; parsing already held the area under libavif's 16384² limit.
        decoder.pointee.imageSizeLimit = UInt32(clamping: size.area)
        return (size, count, orientation(of: image), colorSpace(of: image))
    }

    /// The duration libavif reads from the sequence's sample table; 0 for a still.
    func duration(at index: Int) -> TimeInterval {
        guard index >= 0, index < frameCount else { return 0 }
        var timing = avifImageTiming()
        guard avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK else { return 0 }
        return timing.duration
    }

    /// Decodes frame `index` and converts it to RGBA8 straight into the returned buffer.
    func decodedFrame(at index: Int) throws -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw ImageCodingError.corrupt(.avif, "no frame \(index) in \(frameCount)")
        }
        try Self.check(avifDecoderNthImage(decoder, UInt32(index)), decoder, bytes)
        guard let image = decoder.pointee.image else {
            throw ImageCodingError.corrupt(.avif, "libavif decoded no image for frame \(index)")
        }
        guard Int(image.pointee.width) == canvasSize.width, Int(image.pointee.height) == canvasSize.height else {
            throw ImageCodingError.corrupt(.avif, "frame \(index) is \(image.pointee.width)x\(image.pointee.height), "
                + "the container says \(canvasSize)")
        }
        return try YUVConversion.rgba(of: image, size: canvasSize) { result in
            AVIFError.error(for: result, diagnostics: &decoder.pointee.diag, file: bytes)
        }
    }

    private static func check(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>,
                              _ bytes: UnsafeRawBufferPointer) throws {
        guard result != AVIF_RESULT_OK else { return }
        throw AVIFError.error(for: result, diagnostics: &decoder.pointee.diag, file: bytes)
    }

    /// The ICC profile libavif read from a `colr` box and the H.273 code points it settled on.
    private static func colorSpace(of image: avifImage) -> EmbeddedColorSpace {
        let icc = image.icc.size > 0 ? image.icc.data.map { [UInt8](UnsafeBufferPointer(start: $0, count: image.icc.size)) } : nil
        let codePoints = ColorCodePoints(
            primaries: UInt16(image.colorPrimaries), transfer: UInt16(image.transferCharacteristics),
            matrix: UInt16(image.matrixCoefficients), fullRange: image.yuvRange == AVIF_RANGE_FULL)
        return EmbeddedColorSpace(iccProfile: icc, codePoints: codePoints)
    }

    /// The EXIF orientation equivalent to `irot` (anti-clockwise quarter turns, applied first)
    /// and `imir` (mode 0 swaps top and bottom, 1 left and right), the mapping Pillow uses.
    private static func orientation(of image: avifImage) -> ImageOrientation {
        let rotated = image.transformFlags & AVIF_TRANSFORM_IROT.rawValue != 0
        let mirrored = image.transformFlags & AVIF_TRANSFORM_IMIR.rawValue != 0
        let leftRight = image.imir.mode != 0
        switch (rotated ? image.irot.angle : 0, mirrored) {
        case (1, false): return .left
        case (1, true): return leftRight ? .rightMirrored : .leftMirrored
        case (2, false): return .down
        case (2, true): return leftRight ? .downMirrored : .upMirrored
        case (3, false): return .right
        case (3, true): return leftRight ? .leftMirrored : .rightMirrored
        case (_, true): return leftRight ? .upMirrored : .downMirrored
        default: return .up
        }
    }
}
