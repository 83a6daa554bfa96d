import CWebP
import Foundation
import WebImage

/// Writing a WebP file's metadata chunks, `ICCP` (an ICC profile) and `EXIF` (a TIFF-structured
/// EXIF block), with libwebp's muxer, which also writes the `VP8X` header that announces them.
enum WebPMetadataChunks {
    /// `webp` with `profile` in an `ICCP` chunk and `exif` in an `EXIF` chunk, each when given;
    /// `webp` itself when neither is.
    static func embedding(_ profile: ColorProfile?, exif: [UInt8]?, in webp: Data) throws(ImageCodingError) -> Data {
        let chunks = [profile.map { ("ICCP", [UInt8]($0.data)) }, exif.map { ("EXIF", $0) }].compactMap { $0 }
        guard !chunks.isEmpty else { return webp }
        let assembled: Data? = webp.withUnsafeBytes { file in
            guard let base = file.baseAddress else { return nil }
            var bitstream = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: file.count)
            guard let mux = WebPMuxCreate(&bitstream, 0) else { return nil }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                let set = payload.withUnsafeBufferPointer { bytes -> WebPMuxError in
                    var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                    return WebPMuxSetChunk(mux, fourCC, &chunk, 1)
                }
                guard set == WEBP_MUX_OK else { return nil }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else { return nil }
            defer { WebPDataClear(&output) }
            return Data(bytes: bytes, count: output.size)
        }
        guard let assembled else { throw .encodingFailed(.webp, "libwebp's muxer could not add the ICC profile or EXIF block") }
        return assembled
    }
}
