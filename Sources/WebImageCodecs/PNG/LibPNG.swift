import CCodecShims
import WebImage

/// Swift's side of the libpng shim (`wi_png.c`): buffers sized from the `IHDR` already
/// checked, and shim statuses turned into ``ImageCodingError``.
enum LibPNG {
    /// Decodes the complete PNG in `file`, whose `IHDR` states `size`, to RGBA8.
    static func decode(_ file: UnsafeRawBufferPointer, size: PixelSize) throws(ImageCodingError) -> PixelBuffer {
        let count = try byteCount(size)
        var error = wi_png_error()
        var status = WI_PNG_OK
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            PixelBuffer.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            status = wi_png_decode(file.baseAddress, file.count, UInt32(size.width), UInt32(size.height),
                                   buffer.baseAddress, &error)
            initialized = status == WI_PNG_OK ? count : 0
        }
        try check(status, error)
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
    }

    /// Decodes the complete PNG in `file`, whose `IHDR` states `size`, straight to `target`:
    /// bands of rows go from the decoder into a ``ResamplingStream``, so the full-size pixels
    /// are never held, and `transform` (the `iCCP` profile's conversion, when there is one)
    /// converts the result. `nil` for an interlaced PNG, whose rows are final only after the
    /// last pass: decode it whole. When WebImage's own reader leaves the file to libpng mid-way,
    /// the decode starts again with libpng, whose answer stands.
    static func decode(_ file: UnsafeRawBufferPointer, size: PixelSize, converting transform: ColorTransform?,
                       resampledTo target: PixelSize) throws(ImageCodingError) -> PixelBuffer?
    {
        let rowBytes = try byteCount(PixelSize(width: size.width, height: 1))
        let bandRows = max(1, min(size.height, bandBytes / rowBytes))
        let band = UnsafeMutableRawPointer.allocate(byteCount: bandRows * rowBytes, alignment: 16)
        defer { band.deallocate() }
        var mode = WI_PNG_ROWS_ANY
        while true {
            var error = wi_png_error()
            var reader: OpaquePointer?
            let opened = wi_png_rows_open(file.baseAddress, file.count, UInt32(size.width), UInt32(size.height),
                                          mode, &reader, &error)
            if opened == WI_PNG_INTERLACED { return nil }
            try check(opened, error)
            defer { wi_png_rows_close(reader) }
            let stream = ResamplingStream(from: size, to: target)
            var status = WI_PNG_OK
            while stream.remainingRows > 0 && status == WI_PNG_OK {
                let rows = min(bandRows, stream.remainingRows)
                status = wi_png_rows_read(reader, band.assumingMemoryBound(to: UInt8.self), UInt32(rows), &error)
                if status == WI_PNG_OK { stream.append(rows: band, count: rows) }
            }
            if status == WI_PNG_FALLBACK && mode == WI_PNG_ROWS_ANY {
                mode = WI_PNG_ROWS_LIBPNG
                continue
            }
            try check(status, error)
            var pixels = stream.finish()
            transform?.apply(to: &pixels)
            return pixels
        }
    }

    /// The bytes of rows decoded at once when streaming: enough that a call's cost vanishes,
    /// few enough to stay in the cache.
    private static let bandBytes = 64 << 10

    /// Decodes what has arrived of a PNG whose `IHDR` states `size`: the rows or interlace
    /// passes seen so far over transparent black, and whether the image data was complete.
    /// `nil` when libpng rejects the bytes.
    static func decodePartial(_ prefix: UnsafeRawBufferPointer, size: PixelSize) -> (PixelBuffer, complete: Bool)? {
        guard let count = try? byteCount(size) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var error = wi_png_error()
        var complete: Int32 = 0
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            wi_png_decode_partial(prefix.baseAddress, prefix.count, UInt32(size.width), UInt32(size.height),
                                  buffer.baseAddress, &complete, &error)
        }
        guard status == WI_PNG_OK else { return nil }
        return (PixelBuffer(width: size.width, height: size.height, bytes: bytes), complete != 0)
    }

    /// Encodes `pixels` as an 8-bit PNG: RGBA when `keepAlpha`, otherwise RGB; Adam7-interlaced
    /// when `interlaced`.
    static func encode(_ pixels: PixelBuffer, keepAlpha: Bool, interlaced: Bool = false) throws(ImageCodingError) -> [UInt8] {
        guard pixels.width > 0, pixels.height > 0,
              let width = UInt32(exactly: pixels.width), let height = UInt32(exactly: pixels.height)
        else { throw .encodingFailed(.png, "cannot encode a \(pixels.width)x\(pixels.height) image") }
        var output = wi_png_buffer()
        defer { wi_png_buffer_free(&output) }
        var error = wi_png_error()
        let status = pixels.bytes.withUnsafeBufferPointer { rgba in
            wi_png_encode(rgba.baseAddress, width, height, keepAlpha ? 1 : 0, interlaced ? 1 : 0, &output, &error)
        }
        guard status == WI_PNG_OK else { throw .encodingFailed(.png, message(error)) }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.size))
    }

    /// Encodes `indexed` as a palette PNG at the fewest bits a pixel its palette needs;
    /// Adam7-interlaced when `interlaced`.
    static func encode(_ indexed: IndexedPixels, interlaced: Bool) throws(ImageCodingError) -> [UInt8] {
        guard let width = UInt32(exactly: indexed.width), let height = UInt32(exactly: indexed.height) else {
            throw .encodingFailed(.png, "cannot encode a \(indexed.width)x\(indexed.height) image")
        }
        let palette = indexed.palette.flatMap { [$0.r, $0.g, $0.b, $0.a] }
        var output = wi_png_buffer()
        defer { wi_png_buffer_free(&output) }
        var error = wi_png_error()
        let status = indexed.indices.withUnsafeBufferPointer { indices in
            palette.withUnsafeBufferPointer { colours in
                wi_png_encode_indexed(indices.baseAddress, width, height, colours.baseAddress, UInt32(indexed.palette.count),
                                      Int32(bitDepth(forColors: indexed.palette.count)), interlaced ? 1 : 0,
                                      &output, &error)
            }
        }
        guard status == WI_PNG_OK else { throw .encodingFailed(.png, message(error)) }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.size))
    }

    /// The bits a pixel needs for a palette of `count` colours, as libvips picks them.
    static func bitDepth(forColors count: Int) -> Int {
        switch count {
        case ...2: 1
        case ...4: 2
        case ...16: 4
        default: 8
        }
    }

    /// `size.area * 4`, or ``ImageCodingError/tooManyPixels(width:height:limit:)`` when that
    /// does not fit in memory's address range.
    private static func byteCount(_ size: PixelSize) throws(ImageCodingError) -> Int {
        let (area, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, area <= Int.max / 4 else {
            throw .tooManyPixels(width: size.width, height: size.height, limit: Int.max / 4)
        }
        return area * 4
    }

    private static func check(_ status: wi_png_status, _ error: wi_png_error) throws(ImageCodingError) {
        switch status {
        case WI_PNG_OK: return
        case WI_PNG_TRUNCATED: throw .truncated(.png)
        default: throw .corrupt(.png, message(error))
        }
    }

    private static func message(_ error: wi_png_error) -> String {
        withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
