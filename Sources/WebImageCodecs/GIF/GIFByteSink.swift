import CGIF

/// The bytes one giflib encoding session has written: the `UserData` behind
/// ``writeGIFBytes(_:_:_:)``.
final class GIFByteSink {
    /// Everything written so far.
    private(set) var bytes: [UInt8] = []

    /// Appends `count` bytes from `buffer`.
    func write(_ buffer: UnsafePointer<UInt8>, count: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
    }
}

/// giflib's `OutputFunc`: appends to the ``GIFByteSink`` in the file's `UserData`.
func writeGIFBytes(_ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafePointer<GifByteType>?,
                   _ count: Int32) -> Int32 {
    guard let file, let buffer, count >= 0, let context = file.pointee.UserData else { return 0 }
    Unmanaged<GIFByteSink>.fromOpaque(context).takeUnretainedValue().write(buffer, count: Int(count))
    return count
}
