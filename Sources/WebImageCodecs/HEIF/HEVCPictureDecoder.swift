import CAVIF
import CDE265
import WebImage

/// One libde265 decoder fed the samples of a ``HEIFSequence`` in decoding order; the
/// pictures come out in display order, converted to RGBA8.
///
/// libde265 decodes on the calling thread (no worker threads are started). A decoder is used
/// from one task at a time; it is freed with this object.
final class HEVCPictureDecoder {
    private let context: UnsafeMutableRawPointer
    private let size: PixelSize
    /// The largest coding tree block (64 × 64): a coded picture is padded to a multiple of it at most.
    private static let largestBlock = 64

    /// A decoder for pictures of `size` (the sample entry's), primed with the parameter sets
    /// of `sequence`.
    init(_ sequence: HEIFSequence, in bytes: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard let context = de265_new_decoder() else { throw .corrupt(.heif, "libde265 could not create a decoder") }
        self.context = context
        size = sequence.size
        for unit in sequence.parameterSets {
            try push(UnsafeRawBufferPointer(rebasing: bytes[unit]))
        }
    }

    deinit {
        de265_free_decoder(context)
    }

    /// Hands libde265 the NAL units of one sample (each behind a big-endian length of
    /// `lengthSize` bytes); a length that runs past the sample throws.
    func push(sample: UnsafeRawBufferPointer, lengthSize: Int) throws(ImageCodingError) {
        var offset = 0
        while offset < sample.count {
            guard sample.count - offset >= lengthSize else { throw .corrupt(.heif, "a sample ends inside a NAL length") }
            let length = Int(clamping: sample.bigEndianInteger(at: offset, count: lengthSize))
            offset += lengthSize
            guard length <= sample.count - offset else { throw .corrupt(.heif, "a NAL unit runs past its sample") }
            try push(UnsafeRawBufferPointer(rebasing: sample[offset..<offset + length]))
            offset += length
        }
    }

    /// Tells libde265 that no sample follows, so that it outputs the pictures it holds back.
    func finish() {
        de265_flush_data(context)
    }

    /// Decodes what has been pushed and returns the pictures that came out, in display
    /// order; throws when libde265 reports an error it cannot go on from.
    func decodePictures() throws(ImageCodingError) -> [PixelBuffer] {
        var pictures: [PixelBuffer] = []
        var more: Int32 = 1
        while more != 0 {
            let status = de265_decode(context, &more)
            while let picture = de265_get_next_picture(context) {
                pictures.append(try rgba(of: picture))
            }
            if status == DE265_ERROR_WAITING_FOR_INPUT_DATA { break }
            guard de265_isOK(status) != 0 || status == DE265_ERROR_IMAGE_BUFFER_FULL else {
                throw .corrupt(.heif, "libde265: " + String(cString: de265_get_error_text(status)))
            }
        }
        return pictures
    }

    /// Hands libde265 one NAL unit. A sequence parameter set must state pictures no larger
    /// than the container's, plus the padding of a coding tree block: libde265 allocates
    /// what it states, and the pixel limit was checked on the container's size.
    private func push(_ unit: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard let start = unit.baseAddress, !unit.isEmpty else { return }
        if HEVCPictureSize.isSequenceParameterSet(unit) {
            guard let coded = HEVCPictureSize(sequenceParameterSet: unit) else {
                throw .corrupt(.heif, "a sequence parameter set ends early")
            }
            guard coded.width <= size.width + Self.largestBlock, coded.height <= size.height + Self.largestBlock else {
                throw .corrupt(.heif, "the stream's pictures are \(coded.width)x\(coded.height), the sequence's \(size)")
            }
        }
        let status = de265_push_NAL(context, start, Int32(unit.count), 0, nil)
        guard de265_isOK(status) != 0 else { throw .corrupt(.heif, "libde265: " + String(cString: de265_get_error_text(status))) }
    }

    /// A decoded picture's Y, Cb and Cr planes converted to RGBA8 by libavif, with the matrix
    /// and range the HEVC stream states (BT.601 when it states none, as libheif assumes),
    /// cropped to the sample entry's size when the coded picture is larger.
    private func rgba(of picture: OpaquePointer) throws(ImageCodingError) -> PixelBuffer {
        let width = Int(de265_get_image_width(picture, 0)), height = Int(de265_get_image_height(picture, 0))
        guard width >= size.width, height >= size.height else {
            throw .corrupt(.heif, "a picture is \(width)x\(height), the sequence's \(size)")
        }
        let depth = Int(de265_get_bits_per_pixel(picture, 0))
        let chroma = de265_get_chroma_format(picture)
        guard (8...16).contains(depth), chroma == de265_chroma_mono || (1...2).map({ de265_get_bits_per_pixel(picture, Int32($0)) }).allSatisfy({ Int($0) == depth })
        else { throw .corrupt(.heif, "a picture has samples of different depths") }
        guard let image = avifImageCreate(UInt32(size.width), UInt32(size.height), UInt32(depth), Self.pixelFormat(chroma))
        else { throw .corrupt(.heif, "libavif could not describe a picture") }
        defer { avifImageDestroy(image) }
        image.pointee.imageOwnsYUVPlanes = AVIF_FALSE
        image.pointee.yuvRange = de265_get_image_full_range_flag(picture) != 0 ? AVIF_RANGE_FULL : AVIF_RANGE_LIMITED
        let matrix = de265_get_image_matrix_coefficients(picture)
        // 2 is "unspecified": read as BT.601, as libheif and ffmpeg read such streams.
        image.pointee.matrixCoefficients = avifMatrixCoefficients(matrix == 2 ? 6 : UInt16(clamping: matrix))
        var planes: [UnsafeMutablePointer<UInt8>?] = []
        var strides: [UInt32] = []
        for channel in 0..<(chroma == de265_chroma_mono ? 1 : 3) {
            var stride: Int32 = 0
            planes.append(UnsafeMutablePointer(mutating: de265_get_image_plane(picture, Int32(channel), &stride)))
            strides.append(UInt32(clamping: stride))
        }
        guard planes.allSatisfy({ $0 != nil }) else { throw .corrupt(.heif, "libde265 gave a picture without planes") }
        withUnsafeMutableBytes(of: &image.pointee.yuvPlanes) { $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self) { slots in
            for (index, plane) in planes.enumerated() { slots[index] = plane }
        } }
        withUnsafeMutableBytes(of: &image.pointee.yuvRowBytes) { $0.withMemoryRebound(to: UInt32.self) { slots in
            for (index, stride) in strides.enumerated() { slots[index] = stride }
        } }
        return try YUVConversion.rgba(of: image, size: size) { result in
            .corrupt(.heif, "libavif could not convert a picture: " + String(cString: avifResultToString(result)))
        }
    }

    /// libavif's name for libde265's chroma format.
    private static func pixelFormat(_ chroma: de265_chroma) -> avifPixelFormat {
        switch chroma {
        case de265_chroma_mono: AVIF_PIXEL_FORMAT_YUV400
        case de265_chroma_422: AVIF_PIXEL_FORMAT_YUV422
        case de265_chroma_444: AVIF_PIXEL_FORMAT_YUV444
        default: AVIF_PIXEL_FORMAT_YUV420
        }
    }
}
