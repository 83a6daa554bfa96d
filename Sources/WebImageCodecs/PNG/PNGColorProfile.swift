import CCodecShims
import Foundation
import WebImage

/// The `iCCP` chunk: a PNG's ICC profile, as a name, a compression method (0, zlib) and the
/// compressed profile.
enum PNGColorProfile {
    /// The name written for a profile (the chunk needs one; readers ignore it).
    static let name = "ICC Profile"

    /// The profile of the first `iCCP` chunk before the image data, inflated to at most
    /// ``ColorProfile/maximumByteCount``; nil without one. Throws
    /// ``ColorProfileError/malformed(_:)`` for a chunk that does not parse or inflate.
    static func read(_ chunks: PNGChunkList, in file: UnsafeRawBufferPointer) throws(ColorProfileError) -> Data? {
        guard let chunk = chunks.chunks.prefix(while: { $0.type != .IDAT }).first(where: { $0.type == .iCCP }) else {
            return nil
        }
        let data = file[chunk.data]
        guard let end = data.prefix(80).firstIndex(of: 0), end > data.startIndex else {
            throw .malformed("the iCCP chunk has no profile name of 1 to 79 bytes")
        }
        guard end + 1 < data.endIndex, data[end + 1] == 0 else {
            throw .malformed("the iCCP chunk states an unknown compression method")
        }
        let compressed = UnsafeRawBufferPointer(rebasing: data[(end + 2)...])
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = wi_zlib_inflate(compressed.baseAddress?.assumingMemoryBound(to: UInt8.self), compressed.count,
                                     ColorProfile.maximumByteCount, &output, &length)
        switch status {
        case WI_ZLIB_OK:
            guard let output else { return Data() }
            return Data(bytesNoCopy: output, count: length, deallocator: .free)
        case WI_ZLIB_TOO_LARGE:
            throw .tooLarge(ColorProfile.maximumByteCount + 1)
        case WI_ZLIB_NO_MEMORY:
            throw .malformed("out of memory inflating the iCCP chunk")
        default:
            throw .malformed("the iCCP chunk's zlib data is damaged")
        }
    }

    /// The data of an `iCCP` chunk holding `profile`.
    static func chunkData(for profile: ColorProfile) throws(ImageCodingError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = profile.data.withUnsafeBytes { bytes in
            wi_zlib_deflate(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &output, &length)
        }
        guard status == WI_ZLIB_OK, let output else {
            throw .encodingFailed(.png, "zlib could not compress the ICC profile")
        }
        defer { free(output) }
        return Array(name.utf8) + [0, 0] + UnsafeBufferPointer(start: output, count: length)
    }
}
