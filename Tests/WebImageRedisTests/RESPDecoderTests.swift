import NIOCore
@testable import WebImageRedis
import XCTest

/// The RESP2 decoder on bytes as they may arrive: cut anywhere, or not RESP at all.
final class RESPDecoderTests: XCTestCase {
    func testAReplyCutAnywhereWaitsForTheRestThenComesBackWhole() throws {
        let wire = "*3\r\n$5\r\nhello\r\n:42\r\n*2\r\n+OK\r\n$-1\r\n"
        let expected = RESPValue.array([.bulkString(ByteBuffer(string: "hello")), .integer(42), .array([.simpleString("OK"), .null])])
        for cut in 0..<wire.utf8.count {
            var prefix = ByteBuffer(string: String(wire.utf8.prefix(cut))!)
            XCTAssertNil(try RESPDecoder.parse(&prefix, depth: 0), "\(cut) bytes are not a whole reply")
        }
        var whole = ByteBuffer(string: wire + "-ERR next")
        XCTAssertEqual(try RESPDecoder.parse(&whole, depth: 0), expected)
        XCTAssertEqual(String(buffer: whole), "-ERR next", "only the first reply is consumed")
    }

    func testBytesThatAreNotRESPAreAProtocolViolation() {
        for wire in ["?what\r\n", ":4x2\r\n", "$3\r\nabcde\r\n", "+OK\rX", "$-2\r\n"] {
            var buffer = ByteBuffer(string: wire)
            XCTAssertThrowsError(try RESPDecoder.parse(&buffer, depth: 0), wire) { error in
                guard case .protocolViolation = error as? RedisError else { return XCTFail("\(wire): \(error)") }
            }
        }
    }
}
