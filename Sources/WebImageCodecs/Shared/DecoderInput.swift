import Foundation
import WebImage

/// A C library's decoder (libavif's `avifDecoder`, libjxl's `JxlDecoder`, libheif's
/// `heif_context`) and the copy of a file's bytes it reads in place: those libraries read the
/// bytes without copying for as long as the decoder lives, so the two are made together and
/// released together, the decoder first, in `deinit`. A reader that holds one frees both
/// whichever way its initialiser fails, with no cleanup of its own.
final class DecoderInput<Decoder> {
    /// The decoder, valid as long as this object lives.
    let decoder: Decoder
    /// The copy of the file's bytes the decoder reads, valid as long as this object lives.
    let bytes: UnsafeRawBufferPointer
    private let destroy: (Decoder) -> Void

    /// Makes a decoder with `create` (released with `destroy`) and a copy of `data`; throws
    /// `failure` when `create` gives no decoder.
    init(copying data: Data, create: () -> Decoder?, destroy: @escaping (Decoder) -> Void,
         failure: @autoclosure () -> ImageCodingError) throws {
        guard let decoder = create() else { throw failure() }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
        copy.copyBytes(from: data)
        self.decoder = decoder
        self.destroy = destroy
        bytes = UnsafeRawBufferPointer(copy)
    }

    deinit {
        destroy(decoder)
        bytes.deallocate()
    }
}
