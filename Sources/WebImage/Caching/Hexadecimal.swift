/// Lowercase hexadecimal text of bytes: how digests are written in cache file names, ETags and
/// request signatures.
public enum Hexadecimal {
    /// `bytes` as lowercase hex digits, two per byte, most significant nibble first. Inlinable,
    /// so that a caller's digest type is specialised rather than walked through generics.
    @inlinable
    public static func lowercase<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var index = 0
            for byte in bytes {
                out[index] = digits.utf8Start[Int(byte >> 4)]
                out[index + 1] = digits.utf8Start[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }
}
