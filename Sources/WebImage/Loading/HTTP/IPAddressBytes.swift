#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16), for ``HTTPProxyRule``'s `NO_PROXY` entries.
struct IPAddressBytes: Hashable {
    /// The address's bytes, in network order.
    let bytes: [UInt8]

    /// The address `text` spells (dotted IPv4, or IPv6 without brackets), or nil when it is none.
    init?(_ text: String) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// Whether this address lies in the `bits`-bit prefix of `block` (of the same family).
    func isWithin(_ block: IPAddressBytes, bits: Int) -> Bool {
        guard bytes.count == block.bytes.count else { return false }
        for index in 0..<bytes.count {
            let left = bits - index * 8
            if left <= 0 { return true }
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if bytes[index] & mask != block.bytes[index] & mask { return false }
        }
        return true
    }
}
