import CWebP
import Foundation
import WebImage

/// The metadata chunks of a WebP container that change how its pixels are shown: the
/// orientation of the `EXIF` chunk and the ICC profile of the `ICCP` chunk.
struct WebPMetadata {
    /// The orientation the `EXIF` chunk states; `.up` without one.
    let orientation: ImageOrientation
    /// The bytes of the `ICCP` chunk; nil without one.
    let iccProfile: Data?

    /// The metadata of the WebP bytes in `bytes`, as far as the container parses (a download
    /// in progress has its `ICCP` chunk early and its `EXIF` chunk usually after the pixels).
    init(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            self.init(orientation: .up, iccProfile: nil)
            return
        }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demuxer = WebPDemuxPartial(&data, &state) else {
            self.init(orientation: .up, iccProfile: nil)
            return
        }
        defer { WebPDemuxDelete(demuxer) }
        self.init(demuxer: demuxer)
    }

    /// The metadata `demuxer` has parsed.
    init(demuxer: OpaquePointer) {
        let exif = Self.chunk("EXIF", in: demuxer) { EXIF.orientation(fromTIFF: $0) }
        self.init(orientation: exif ?? .up, iccProfile: Self.chunk("ICCP", in: demuxer) { Data($0) })
    }

    private init(orientation: ImageOrientation, iccProfile: Data?) {
        self.orientation = orientation
        self.iccProfile = iccProfile
    }

    /// `read` of the first chunk named `fourCC`, nil without one.
    private static func chunk<T>(_ fourCC: String, in demuxer: OpaquePointer,
                                 _ read: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourCC, 1, &chunk) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let start = chunk.chunk.bytes else { return nil }
        return read(UnsafeBufferPointer(start: start, count: chunk.chunk.size))
    }
}
