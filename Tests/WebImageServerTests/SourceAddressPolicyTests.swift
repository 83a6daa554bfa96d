import Foundation
import WebImage
@testable import WebImageServer
import XCTest

/// The server-side request forgery ranges, including those imgproxy once missed (100.64/10 and
/// IPv4 inside IPv6), and the check on resolved names.
final class SourceAddressPolicyTests: XCTestCase {
    private func kind(_ text: String) -> SourceAddressKind {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return SourceAddressKind(address: withUnsafeBytes(of: v4) { Array($0) }) }
        XCTAssertEqual(inet_pton(AF_INET6, text, &v6), 1, text)
        return SourceAddressKind(address: withUnsafeBytes(of: v6) { Array($0) })
    }

    func testRanges() {
        for address in ["127.0.0.1", "127.255.0.9", "0.0.0.0", "::1", "::", "::ffff:127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::"] {
            XCTAssertEqual(kind(address), .loopback, address)
        }
        for address in ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "100.127.255.255",
                        "192.0.0.8", "198.18.0.1", "224.0.0.1", "255.255.255.255", "fc00::1", "fd12::1", "fd00:ec2::253",
                        "fec0::1", "ff02::1", "::ffff:10.0.0.1", "::10.0.0.1",
                        // IANA's other special-purpose blocks: documentation, AS112, AMT, 6to4 relay, translation…
                        "192.0.2.1", "198.51.100.7", "203.0.113.255", "192.31.196.1", "192.52.193.1", "192.88.99.1",
                        "192.175.48.1", "::ffff:192.0.2.1", "2001:db8::1", "2001::1", "2001:2::1", "2001:1ff::1",
                        "64:ff9b:1::a00:1", "100::1", "2620:4f:8000::1", "3fff::1", "3fff:fff::1", "5f00::1"] {
            XCTAssertEqual(kind(address), .private, address)
        }
        for address in ["169.254.169.254", "169.254.170.2", "::ffff:169.254.169.254", "fe80::1", "febf::1", "fd00:ec2::254"] {
            XCTAssertEqual(kind(address), .linkLocal, address)
        }
        for address in ["8.8.8.8", "172.32.0.1", "100.128.0.1", "100.63.255.255", "192.169.0.1", "2606:4700::1111",
                        "::ffff:8.8.8.8", "192.0.3.1", "198.51.101.1", "203.0.114.1", "2001:200::1", "2001:db9::1",
                        "2620:4f:8001::1", "3fff:1000::1", "100:0:0:1::1", "64:ff9b:2::1"] {
            XCTAssertEqual(kind(address), .public, address)
        }
    }

    /// The failure `policy` throws for `host`, or nil when it allows it.
    private func refusal(_ policy: SourceAddressPolicy, _ host: String) async -> NetworkFailure? {
        do {
            _ = try await policy.address(connectingTo: host)
            return nil
        } catch {
            return error
        }
    }

    func testLoopbackSourcesAreRefusedUnlessAllowed() async throws {
        let loopback = await refusal(SourceAddressPolicy(), "127.0.0.1")
        XCTAssertEqual(loopback?.reason, .refusedAddress(host: "127.0.0.1", why: "the source resolves to a loopback address"))
        XCTAssertEqual(ProcessingError(loading: .network(try XCTUnwrap(loopback))),
                       .sourceRefused("the source resolves to a loopback address"))
        let allowed = try await SourceAddressPolicy(allowsLoopback: true).address(connectingTo: "127.0.0.1")
        XCTAssertEqual(allowed, "127.0.0.1")
        let mapped = await refusal(SourceAddressPolicy(allowsLoopback: true), "::ffff:10.0.0.1")
        XCTAssertEqual(mapped?.reason, .refusedAddress(host: "::ffff:10.0.0.1", why: "the source resolves to a private address"),
                       "private is not allowed by the loopback flag")
        let privateAllowed = try await SourceAddressPolicy(allowsPrivate: true).address(connectingTo: "fd12::1")
        XCTAssertEqual(privateAllowed, "fd12::1")
        for metadata in ["169.254.169.254", "fd00:ec2::254"] {
            let refused = await refusal(SourceAddressPolicy(allowsLoopback: true, allowsPrivate: true), metadata)
            XCTAssertEqual(refused?.reason, .refusedAddress(host: metadata, why: "the source resolves to a link-local address"),
                           "the metadata services are no source, whatever the flags")
        }
    }

    func testANameIsJudgedByEveryAddressItResolvesToAndPinnedToOne() async throws {
        let refused = await refusal(SourceAddressPolicy(), "localhost")
        XCTAssertEqual(refused?.reason, .refusedAddress(host: "localhost", why: "the source resolves to a loopback address"))
        // The address handed to the downloader is numeric, IPv4 first, so it connects without resolving again.
        let pinned = try await SourceAddressPolicy(allowsLoopback: true).address(connectingTo: "localhost")
        XCTAssertEqual(pinned, "127.0.0.1")
        let missing = await refusal(SourceAddressPolicy(), "no-such-host.invalid")
        XCTAssertEqual(missing?.reason, .hostNotFound("no-such-host.invalid"))
    }
}
