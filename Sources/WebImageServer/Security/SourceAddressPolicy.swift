#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImage

/// Which source hosts the server may fetch from: by default only those whose every address is
/// public, so a URL cannot make the server reach itself or the private network behind it.
///
/// As the downloader's `ConnectionAddressPolicy`, it is asked for the host of every request
/// and every redirect just before connecting: it resolves the name, judges every address it
/// resolves to (see `SourceAddressKind`), and hands back the one to connect to, which the
/// downloader then uses without resolving again. A name that answers a public address to the
/// check and a private one to the connection (DNS rebinding) gains nothing.
public struct SourceAddressPolicy: ConnectionAddressPolicy, Hashable {
    /// Whether sources on this machine (127.0.0.0/8, `::1`) may be fetched.
    public var allowsLoopback: Bool
    /// Whether sources in private and other special ranges may be fetched; link-local ones
    /// (the metadata services) never are.
    public var allowsPrivate: Bool

    /// A policy allowing loopback and private sources only as asked.
    public init(allowsLoopback: Bool = false, allowsPrivate: Bool = false) {
        self.allowsLoopback = allowsLoopback
        self.allowsPrivate = allowsPrivate
    }

    /// The address to connect to for `host` once every address it resolves to is allowed: its
    /// first IPv4 address, else its first IPv6 one. Throws
    /// `NetworkFailure.Reason.refusedAddress(host:why:)` for a refused address and
    /// `NetworkFailure.Reason.hostNotFound(_:)` when the name does not resolve.
    public func address(connectingTo host: String) async throws(NetworkFailure) -> String {
        let addresses = await Task.detached { Self.resolve(host) }.value
        guard !addresses.isEmpty else { throw NetworkFailure(.hostNotFound(host)) }
        for address in addresses {
            switch SourceAddressKind(address: address) {
            case .public: continue
            case .loopback where allowsLoopback: continue
            case .private where allowsPrivate: continue
            case .loopback: throw NetworkFailure(.refusedAddress(host: host, why: "the source resolves to a loopback address"))
            case .private: throw NetworkFailure(.refusedAddress(host: host, why: "the source resolves to a private address"))
            case .linkLocal: throw NetworkFailure(.refusedAddress(host: host, why: "the source resolves to a link-local address"))
            }
        }
        // An IPv4 address first: a host without an IPv6 route still reaches a dual-stack name.
        return Self.text(addresses.first { $0.count == 4 } ?? addresses[0])
    }

    /// `127.0.0.1`, `::1`: the numeric form of a 4- or 16-byte address.
    static func text(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        return address.withUnsafeBytes { bytes in
            buffer.withUnsafeMutableBufferPointer { text in
                guard let start = text.baseAddress, inet_ntop(family, bytes.baseAddress, start, socklen_t(text.count)) != nil
                else { return "" }
                return String(cString: start)
            }
        }
    }

    /// The IPv4 (4-byte) and IPv6 (16-byte) addresses `host` resolves to; empty when it does not.
    static func resolve(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let socketAddress = entry.pointee.ai_addr else { continue }
            switch Int32(socketAddress.pointee.sa_family) {
            case AF_INET:
                socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    addresses.append(withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) })
                }
            case AF_INET6:
                socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    addresses.append(withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) })
                }
            default:
                continue
            }
        }
        return addresses
    }
}
