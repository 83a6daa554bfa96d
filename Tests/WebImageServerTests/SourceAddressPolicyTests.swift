import Foundation
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
                        "169.254.169.254", "192.0.0.8", "198.18.0.1", "224.0.0.1", "255.255.255.255", "fc00::1", "fd12::1",
                        "fe80::1", "fec0::1", "ff02::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::10.0.0.1"] {
            XCTAssertEqual(kind(address), .private, address)
        }
        for address in ["8.8.8.8", "172.32.0.1", "100.128.0.1", "100.63.255.255", "192.169.0.1", "2606:4700::1111",
                        "::ffff:8.8.8.8"] {
            XCTAssertEqual(kind(address), .public, address)
        }
    }

    func testLoopbackSourcesAreRefusedUnlessAllowed() async throws {
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:9/x.jpg"))
        do {
            try await SourceAddressPolicy().check(url)
            XCTFail("loopback allowed by default")
        } catch {
            XCTAssertEqual(error, .forbidden("the source resolves to a loopback address"))
        }
        try await SourceAddressPolicy(allowsLoopback: true).check(url)
        do {
            try await SourceAddressPolicy(allowsLoopback: true).check(try XCTUnwrap(URL(string: "http://[::ffff:10.0.0.1]/x")))
            XCTFail("private allowed by the loopback flag")
        } catch let error as ProcessingError {
            XCTAssertEqual(error.status, 403)
        }
        // A name is judged by what it resolves to.
        do {
            try await SourceAddressPolicy().check(try XCTUnwrap(URL(string: "http://localhost/x")))
            XCTFail("localhost allowed")
        } catch let error as ProcessingError {
            XCTAssertEqual(error.status, 403)
        }
    }
}
