/// What kind of network an IP address belongs to, as far as fetching a source from it is
/// concerned (the server-side request forgery ranges).
enum SourceAddressKind: Equatable {
    /// Reachable on the public internet.
    case `public`
    /// This machine: 127.0.0.0/8, 0.0.0.0/8, `::1`, `::`.
    case loopback
    /// A private, shared, link-local or otherwise special range: 10/8, 172.16/12, 192.168/16,
    /// 100.64/10 (carrier-grade NAT), 169.254/16, 192.0.0/24, 198.18/15, multicast and reserved
    /// IPv4; `fc00::/7`, `fe80::/10`, `fec0::/10` and multicast IPv6.
    case `private`

    /// The kind of a 4-byte IPv4 or 16-byte IPv6 address. IPv4 inside IPv6 (mapped `::ffff:a.b.c.d`,
    /// compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:ab:cd::`) is judged as the IPv4
    /// address it carries. Any other length counts as private.
    init(address bytes: [UInt8]) {
        switch bytes.count {
        case 4: self = Self.ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
        case 16: self = Self.ipv6(bytes)
        default: self = .private
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> SourceAddressKind {
        switch (a, b, c) {
        case (127, _, _), (0, _, _): .loopback
        case (10, _, _), (172, 16...31, _), (192, 168, _), (100, 64...127, _), (169, 254, _), (192, 0, 0),
             (198, 18...19, _), (224..., _, _): .private
        default: .public
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> SourceAddressKind {
        let zeroPrefix = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if zeroPrefix && bytes[10] == 0 && bytes[11] == 0 {
            if bytes[12..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1 { return .loopback }  // :: and ::1
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0] == 0x20 && bytes[1] == 0x02 {
            return ipv4(bytes[2], bytes[3], bytes[4], bytes[5])
        }
        if bytes[0] & 0xFE == 0xFC || bytes[0] == 0xFF || (bytes[0] == 0xFE && bytes[1] & 0x80 == 0x80) {
            return .private  // unique local, multicast, link-local and site-local
        }
        return .public
    }
}
