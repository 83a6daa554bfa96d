#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which source hosts the server may fetch from: by default only those whose every address is
/// public, so a URL cannot make the server reach itself or the private network behind it.
///
/// The host is resolved and every address it resolves to is judged (see ``SourceAddressKind``)
/// before the load starts. The server also follows no redirects, so a public origin cannot
/// bounce a fetch inwards.
public struct SourceAddressPolicy: Sendable, Hashable {
    /// Whether sources on this machine (127.0.0.0/8, `::1`) may be fetched.
    public var allowsLoopback: Bool
    /// Whether sources in private, link-local and other special ranges may be fetched.
    public var allowsPrivate: Bool

    /// A policy allowing loopback and private sources only as asked.
    public init(allowsLoopback: Bool = false, allowsPrivate: Bool = false) {
        self.allowsLoopback = allowsLoopback
        self.allowsPrivate = allowsPrivate
    }

    /// Passes when every address `url`'s host resolves to is allowed; throws
    /// ``ProcessingError/forbidden(_:)`` for a refused address and
    /// ``ProcessingError/sourceFailed(_:)`` when the name does not resolve.
    public func check(_ url: URL) async throws(ProcessingError) {
        guard let host = url.host.map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }), !host.isEmpty else {
            throw .forbidden("the source has no host")
        }
        let addresses = await Task.detached { Self.resolve(host) }.value
        guard !addresses.isEmpty else { throw .sourceFailed("the source host does not resolve") }
        for address in addresses {
            switch SourceAddressKind(address: address) {
            case .public: continue
            case .loopback where allowsLoopback: continue
            case .private where allowsPrivate: continue
            case .loopback: throw .forbidden("the source resolves to a loopback address")
            case .private: throw .forbidden("the source resolves to a private address")
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
