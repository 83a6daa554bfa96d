import CWebP
import Foundation

/// A private copy of encoded WebP bytes at a fixed address.
///
/// libwebp's demuxer and animation decoder keep pointers into their input for as long as they
/// live, longer than any `Data.withUnsafeBytes` call; this copy lives as long as its owner.
final class WebPBytes {
    private let buffer: UnsafeMutableRawBufferPointer

    /// Copies `data`.
    init(_ data: Data) {
        buffer = .allocate(byteCount: max(data.count, 1), alignment: 16)
        data.copyBytes(to: buffer)
        count = data.count
    }

    deinit { buffer.deallocate() }

    /// The number of bytes (the buffer holds at least one so it always has an address).
    let count: Int

    /// The bytes as libwebp's `WebPData` view; valid while `self` lives.
    var webpData: WebPData {
        WebPData(bytes: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), size: count)
    }
}
