import WebImage

/// Reads the orientation from an XMP packet, for files whose EXIF block has none.
///
/// Pillow (the reference) and ImageIO both fall back to XMP's `tiff:Orientation`, written as
/// an attribute (`tiff:Orientation="6"`) or an element (`<tiff:Orientation>6<`); a phone
/// photo edited in some apps carries its rotation only there.
enum XMP {
    private static let tag = Array("tiff:Orientation".utf8)

    /// The first `tiff:Orientation` value in `packet` (the pattern Pillow searches for:
    /// `tiff:Orientation(="|>)([0-9])`), or `nil` when there is none.
    static func orientation(fromPacket packet: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        let quote = UInt8(ascii: "\""), equals = UInt8(ascii: "="), close = UInt8(ascii: ">")
        func digit(at index: Int) -> Int? {
            guard index < packet.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(packet[index]) else { return nil }
            return Int(packet[index] - UInt8(ascii: "0"))
        }
        var start = 0
        while start + tag.count <= packet.count {
            if packet[start] == tag[0], tag.indices.allSatisfy({ packet[start + $0] == tag[$0] }) {
                let after = start + tag.count
                if after + 1 < packet.count, packet[after] == equals, packet[after + 1] == quote,
                   let value = digit(at: after + 2) {
                    return ImageOrientation(exifValue: value)
                }
                if after < packet.count, packet[after] == close, let value = digit(at: after + 1) {
                    return ImageOrientation(exifValue: value)
                }
            }
            start += 1
        }
        return nil
    }
}
