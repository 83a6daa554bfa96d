/// What kind of network an IP address belongs to, as far as fetching a source from it is
/// concerned (the server-side request forgery ranges).
enum SourceAddressKind: Equatable {
    /// Reachable on the public internet.
    case `public`
    /// This machine: 127.0.0.0/8, 0.0.0.0/8, `::1`, `::`.
    case loopback
    /// Link-local: 169.254/16 and fe80::/10, and the cloud metadata address `fd00:ec2::254`. The
    /// instance and container metadata services (and their credentials) live there: never a
    /// source, whatever the flags say (imgproxy's `IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES`,
    /// refused here, would be the only switch).
    case linkLocal
    /// A private, shared or otherwise special range: every block of IANA's IPv4 and IPv6
    /// special-purpose address registries that is neither loopback nor link-local — 10/8,
    /// 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), 192.0.0/24, the documentation
    /// blocks 192.0.2/24, 198.51.100/24 and 203.0.113/24, the AS112, AMT and 6to4-relay blocks,
    /// 198.18/15, multicast and reserved IPv4; `64:ff9b:1::/48`, `100::/64`, `2001::/23`,
    /// `2001:db8::/32`, `2620:4f:8000::/48`, `3fff::/20`, `5f00::/16`, `fc00::/7`, `fec0::/10`
    /// and multicast IPv6. None of them is where a public source lives.
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
        case (169, 254, _): .linkLocal
        case (10, _, _), (172, 16...31, _), (192, 168, _), (100, 64...127, _), (198, 18...19, _),
             (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113),  // protocol assignments, documentation
             (192, 31, 196), (192, 52, 193), (192, 88, 99), (192, 175, 48),  // AS112, AMT, 6to4 relay, AS112
             (224..., _, _): .private
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
        // fe80::/10, and EC2's IPv6 metadata address fd00:ec2::254.
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        if bytes == [0xFD, 0x00, 0x0E, 0xC2] + [UInt8](repeating: 0, count: 10) + [0x02, 0x54] { return .linkLocal }
        return isSpecialPurposeIPv6(bytes) ? .private : .public
    }

    /// Whether `bytes` lies in a block of IANA's IPv6 special-purpose registry that carries no
    /// IPv4 address to judge instead.
    private static func isSpecialPurposeIPv6(_ bytes: [UInt8]) -> Bool {
        let first = UInt16(bytes[0]) << 8 | UInt16(bytes[1]), second = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        let third = UInt16(bytes[4]) << 8 | UInt16(bytes[5])
        return switch (first, second, third) {
        case (0x0064, 0xFF9B, 0x0001),  // 64:ff9b:1::/48, local-use translation
             (0x0100, 0, 0) where bytes[6..<8].allSatisfy({ $0 == 0 }),  // 100::/64, discard-only
             (0x2001, 0x0000...0x01FF, _),  // 2001::/23, IETF protocol assignments (Teredo, benchmarking, ORCHID…)
             (0x2001, 0x0DB8, _),  // 2001:db8::/32, documentation
             (0x2620, 0x004F, 0x8000),  // 2620:4f:8000::/48, AS112
             (0x3FFF, 0x0000...0x0FFF, _),  // 3fff::/20, documentation
             (0x5F00, _, _),  // 5f00::/16, segment routing
             (0xFC00...0xFDFF, _, _),  // fc00::/7, unique local
             (0xFEC0...0xFFFF, _, _):  // fec0::/10 site-local, ff00::/8 multicast (fe80::/10 is link-local)
            true
        default:
            false
        }
    }
}
