import CCodecShims
import CJPEG
import Foundation
import WebImage

/// One libjpeg decompression over bytes that outlive it: the header is read when it is made,
/// then ``decode(scaleDenominator:size:maxPixels:converting:)`` runs once.
///
/// Noncopyable because it owns the C decoder, which `deinit` releases exactly once.
struct JPEGDecompressor: ~Copyable {
    /// The stored (not yet oriented) size of the image.
    let imageSize: PixelSize
    /// The orientation from the first `Exif` APP1 marker, else from the XMP packet; `.up` without.
    let orientation: ImageOrientation
    /// The ICC profile of the `APP2` markers, reassembled; nil without one (or with markers
    /// libjpeg finds inconsistent).
    let iccProfile: Data?
    /// How the decoded pixels hold their colour: grey, RGB, or (CMYK and YCCK files) CMYK.
    let samples: ColorSamples
    private let handle: OpaquePointer

    /// Reads the header of the JPEG in `bytes`, which must stay valid while this value lives.
    /// With `allowTruncated`, the data may end anywhere after the header.
    init(bytes: UnsafeRawBufferPointer, allowTruncated: Bool) throws(ImageCodingError) {
        guard let handle = wi_jpeg_decoder_create() else {
            throw .corrupt(.jpeg, "out of memory creating the JPEG decoder")
        }
        var info = wi_jpeg_info()
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = wi_jpeg_read_header(handle, base, bytes.count, allowTruncated ? 1 : 0, &info)
        guard status == WI_JPEG_OK else {
            let error = Self.error(status, handle: handle, size: nil, maxPixels: 0)
            wi_jpeg_decoder_destroy(handle)
            throw error
        }
        self.handle = handle
        self.imageSize = PixelSize(width: Int(info.width), height: Int(info.height))
        self.orientation = Self.orientation(info)
        self.iccProfile = info.icc.map { Data(bytes: $0, count: info.icc_length) }
        self.samples = switch J_COLOR_SPACE(UInt32(info.color_space)) {
        case JCS_GRAYSCALE: .gray
        case JCS_CMYK, JCS_YCCK: .invertedCMYK
        default: .rgb
        }
    }

    deinit { wi_jpeg_decoder_destroy(handle) }

    /// EXIF's orientation; when that is upright or absent, XMP's `tiff:Orientation` (as Pillow,
    /// which takes XMP's only when EXIF has no tag: an explicit EXIF 1 beside another XMP
    /// value, which no known writer produces, is read as XMP's here).
    private static func orientation(_ info: wi_jpeg_info) -> ImageOrientation {
        if let exif = info.exif {
            let orientation = EXIF.orientation(fromTIFF: UnsafeBufferPointer(start: exif, count: info.exif_length))
            if orientation != .up { return orientation }
        }
        guard let xmp = info.xmp else { return .up }
        return XMP.orientation(fromPacket: UnsafeBufferPointer(start: xmp, count: info.xmp_length)) ?? .up
    }

    /// Decodes the image scaled by 1/`scaleDenominator` into RGBA8 of `size`, which must be
    /// the size libjpeg outputs at that scale, converted through `transform` when there is one
    /// (a CMYK or YCCK image is then read as its inverted CMYK bytes, ``samples``, for the
    /// profile, instead of converted naively as Pillow does). The conversion is fused into
    /// libjpeg's output: each band of rows is converted as soon as it is decoded, beside the
    /// decoder (``ColorTransform/convertingBands(of:rowBytes:fill:)``). Whole-image buffers (a
    /// progressive JPEG's coefficients, kept at full size whatever the scale) may take at most
    /// 8 bytes for each of `maxPixels` pixels, so a huge progressive file fails with
    /// `tooManyPixels`. Returns whether the data ended early (possible only with `allowTruncated`).
    func decode(scaleDenominator: Int, size: PixelSize, maxPixels: Int, converting transform: ColorTransform?)
        throws(ImageCodingError) -> (pixels: PixelBuffer, incomplete: Bool)
    {
        let count = size.area * 4
        var incomplete: Int32 = 0
        var status = WI_JPEG_OK
        let handle = self.handle
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            PixelBuffer.adviseHugePages(raw)
            guard let transform else {
                status = wi_jpeg_decode(handle, Int32(scaleDenominator), Self.maxMemory(maxPixels), 0,
                                        buffer.baseAddress, Int32(size.width), Int32(size.height), &incomplete)
                initialized = status == WI_JPEG_OK ? count : 0
                return
            }
            status = wi_jpeg_start(handle, Int32(scaleDenominator), Self.maxMemory(maxPixels),
                                   transform.input == .invertedCMYK ? 1 : 0, 0, Int32(size.width), Int32(size.height))
            guard status == WI_JPEG_OK else { return }
            let filled = transform.convertingBands(of: raw, rowBytes: size.width * 4) { band, rows in
                status = wi_jpeg_read_rows(handle, band.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(rows))
                return status == WI_JPEG_OK
            }
            guard filled else { return }
            status = wi_jpeg_finish(handle, &incomplete)
            initialized = status == WI_JPEG_OK ? count : 0
        }
        try check(status, maxPixels: maxPixels)
        return (PixelBuffer(width: size.width, height: size.height, bytes: bytes), incomplete != 0)
    }

    /// As ``decode(scaleDenominator:size:maxPixels:converting:)``, resized to
    /// `target`: the rows go from libjpeg to a ``ResamplingStream`` a band at a time, so the
    /// pixels at `size` are never held whole. The colour transform converts the result, or
    /// for CMYK each band on its way (``ColorTransform/convertsAfterResampling``).
    func decode(scaleDenominator: Int, size: PixelSize, maxPixels: Int, converting transform: ColorTransform?,
                resampledTo target: PixelSize) throws(ImageCodingError) -> (pixels: PixelBuffer, incomplete: Bool)
    {
        let rawCMYK: Int32 = transform?.input == .invertedCMYK ? 1 : 0
        // Decoded in draft mode, as Pillow's `draft` does for thumbnails: the resampler averages
        // away what replicated chroma and the fast IDCT change, at a fraction of the cost.
        try check(wi_jpeg_start(handle, Int32(scaleDenominator), Self.maxMemory(maxPixels), rawCMYK, 1,
                                Int32(size.width), Int32(size.height)), maxPixels: maxPixels)
        let stream = ResamplingStream(from: size, to: target)
        let rowBytes = size.width * 4
        let bandRows = max(1, min(size.height, Self.bandBytes / max(1, rowBytes)))
        let band = UnsafeMutableRawBufferPointer.allocate(byteCount: bandRows * rowBytes, alignment: 16)
        defer { band.deallocate() }
        while stream.remainingRows > 0 {
            let rows = min(bandRows, stream.remainingRows)
            let filled = UnsafeMutableRawBufferPointer(rebasing: band[0..<rows * rowBytes])
            try check(wi_jpeg_read_rows(handle, filled.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(rows)),
                      maxPixels: maxPixels)
            if let transform, !transform.convertsAfterResampling { transform.apply(to: filled) }
            stream.append(rows: UnsafeRawPointer(band.baseAddress!), count: rows)
        }
        var incomplete: Int32 = 0
        try check(wi_jpeg_finish(handle, &incomplete), maxPixels: maxPixels)
        var pixels = stream.finish()
        if let transform, transform.convertsAfterResampling { transform.apply(to: &pixels) }
        return (pixels, incomplete != 0)
    }

    /// The bytes of rows decoded at once when streaming to the resampler.
    private static let bandBytes = 64 << 10

    /// libjpeg's cap on whole-image buffers for `maxPixels`: 8 bytes a pixel, 0 (none) without a limit.
    private static func maxMemory(_ maxPixels: Int) -> Int {
        let product = maxPixels.multipliedReportingOverflow(by: 8)
        return maxPixels <= 0 ? 0 : product.overflow ? Int.max : product.partialValue
    }

    /// Throws the typed error of a failed step.
    private func check(_ status: wi_jpeg_status, maxPixels: Int) throws(ImageCodingError) {
        guard status == WI_JPEG_OK else {
            throw Self.error(status, handle: handle, size: imageSize, maxPixels: maxPixels)
        }
    }

    /// The typed error for a failed shim call.
    private static func error(_ status: wi_jpeg_status, handle: OpaquePointer, size: PixelSize?,
                              maxPixels: Int) -> ImageCodingError {
        let message = String(cString: wi_jpeg_decoder_message(handle))
        switch status {
        case WI_JPEG_TRUNCATED:
            return .truncated(.jpeg)
        case WI_JPEG_UNSUPPORTED:
            return .unsupportedFeature(.jpeg, message)
        case WI_JPEG_TOO_LARGE:
            guard let size else { return .corrupt(.jpeg, message) }
            return .tooManyPixels(width: size.width, height: size.height, limit: maxPixels)
        default:
            return .corrupt(.jpeg, message)
        }
    }
}
