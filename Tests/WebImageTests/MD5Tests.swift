import WebImage
import XCTest

final class MD5Tests: XCTestCase {
    /// The RFC 1321 test suite (appendix A.5).
    func testRFC1321Vectors() {
        let vectors: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (input, expected) in vectors {
            XCTAssertEqual(MD5.hex(input), expected, "md5(\(input.debugDescription))")
        }
    }

    /// Lengths around the 56-byte padding boundary, a multi-block input, URLs and non-ASCII
    /// text (expected values from Python's hashlib).
    func testPaddingBoundariesAndUTF8() {
        XCTAssertEqual(MD5.hex(String(repeating: "a", count: 55)), "ef1772b6dff9a122358552954ad0df65")
        XCTAssertEqual(MD5.hex(String(repeating: "a", count: 56)), "3b0c8ac703f828b04c6c197006d17218")
        XCTAssertEqual(MD5.hex(String(repeating: "a", count: 64)), "014842d480b571495a4a0363793f7367")
        XCTAssertEqual(MD5.hex([UInt8](repeating: 0x61, count: 1_000_000)), "7707d6ae4e027c70eea2a935c2296f21")
        XCTAssertEqual(MD5.hex("https://example.com/a.png"), "8c11d92f07c76baf29e49afd2301deb2")
        XCTAssertEqual(MD5.hex("https://例え.jp/画像.JPG?size=2"), "733997845fe5c3d4d25aa8482cf1dc81")
        XCTAssertEqual(MD5.digest([UInt8]()).count, 16)
    }
}
