import CGIF
import Foundation

/// The bytes one giflib session reads, and how far it has read: the `UserData` behind
/// ``readGIFBytes(_:_:_:)``.
///
/// giflib pulls its input through a C callback; this class is that callback's context. It
/// holds the `Data` (so the bytes live as long as the session) and never hands out a pointer
/// into it: each read copies the requested bytes into giflib's buffer.
final class GIFDataSource {
    private let data: Data
    private var offset = 0

    /// A source that reads `data` from its first byte.
    init(_ data: Data) {
        self.data = data
    }

    /// Whether every byte has been read: a read error at this point means the file is truncated.
    var isAtEnd: Bool { offset >= data.count }

    /// How many bytes have been read.
    var position: Int { offset }

    /// The byte `distance` bytes past the next one to be read, without reading it; nil past the end.
    func peek(_ distance: Int) -> UInt8? {
        guard distance >= 0, distance < data.count - offset else { return nil }
        return data[data.startIndex + offset + distance]
    }

    /// Copies up to `count` bytes into `buffer`; returns how many were copied (fewer at the end).
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let length = min(max(count, 0), data.count - offset)
        guard length > 0 else { return 0 }
        let start = data.startIndex + offset
        data.copyBytes(to: buffer, from: start..<start + length)
        offset += length
        return length
    }
}

/// giflib's `InputFunc`: reads from the ``GIFDataSource`` in the file's `UserData`.
///
/// giflib treats a short count as a read error, which is how the end of the data surfaces.
func readGIFBytes(_ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?,
                  _ count: Int32) -> Int32 {
    guard let file, let buffer, let context = file.pointee.UserData else { return 0 }
    let source = Unmanaged<GIFDataSource>.fromOpaque(context).takeUnretainedValue()
    return Int32(source.read(into: buffer, count: Int(count)))
}
