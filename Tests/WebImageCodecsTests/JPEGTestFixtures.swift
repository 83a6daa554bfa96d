import Foundation

/// JPEG-specific edits of fixture bytes (reading the fixtures is `Fixtures`' job).
enum JPEGTestFixtures {
    /// `data` with the frame header (SOF0/SOF2) claiming `width` x `height`.
    static func patchingFrameSize(_ data: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](data)
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xC0 || marker == 0xC2 {
                bytes[offset + 5] = UInt8(height >> 8); bytes[offset + 6] = UInt8(height & 0xFF)
                bytes[offset + 7] = UInt8(width >> 8); bytes[offset + 8] = UInt8(width & 0xFF)
                return Data(bytes)
            }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        preconditionFailure("no SOF0/SOF2 marker")
    }
}
