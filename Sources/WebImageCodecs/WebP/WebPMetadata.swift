import CWebP
import WebImage

/// The metadata chunks of a WebP container that change how its pixels are shown.
enum WebPMetadata {
    /// The orientation from the `EXIF` chunk of the WebP bytes in `bytes` (`.up` without one,
    /// or when the container cannot be parsed far enough to find it).
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .up }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demuxer = WebPDemuxPartial(&data, &state) else { return .up }
        defer { WebPDemuxDelete(demuxer) }
        return orientation(in: demuxer)
    }

    /// The orientation from the `EXIF` chunk that `demuxer` has parsed, `.up` without one.
    static func orientation(in demuxer: OpaquePointer) -> ImageOrientation {
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk) != 0 else { return .up }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let start = chunk.chunk.bytes else { return .up }
        return EXIF.orientation(fromTIFF: UnsafeBufferPointer(start: start, count: chunk.chunk.size))
    }
}
