import CWebP
import Foundation
import WebImage

/// Writing the `ICCP` chunk of a WebP file with libwebp's muxer.
enum WebPColorProfile {
    /// `webp` with `profile` in an `ICCP` chunk (and the `VP8X` header that announces it);
    /// `webp` itself without a profile.
    static func embedding(_ profile: ColorProfile?, in webp: Data) throws(ImageCodingError) -> Data {
        guard let profile else { return webp }
        let assembled: Data? = webp.withUnsafeBytes { file in
            guard let base = file.baseAddress else { return nil }
            var bitstream = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: file.count)
            guard let mux = WebPMuxCreate(&bitstream, 0) else { return nil }
            defer { WebPMuxDelete(mux) }
            let set = profile.data.withUnsafeBytes { icc -> WebPMuxError in
                var chunk = WebPData(bytes: icc.baseAddress?.assumingMemoryBound(to: UInt8.self), size: icc.count)
                return WebPMuxSetChunk(mux, "ICCP", &chunk, 1)
            }
            var output = WebPData()
            guard set == WEBP_MUX_OK, WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
                return nil
            }
            defer { WebPDataClear(&output) }
            return Data(bytes: bytes, count: output.size)
        }
        guard let assembled else { throw .encodingFailed(.webp, "libwebp's muxer could not add the ICC profile") }
        return assembled
    }
}
