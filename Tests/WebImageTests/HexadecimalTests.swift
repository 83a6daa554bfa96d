import WebImage
import XCTest

final class HexadecimalTests: XCTestCase {
    func testBytesAreWrittenAsLowercaseDigitPairs() {
        XCTAssertEqual(Hexadecimal.lowercase([0x00, 0x0f, 0xa5, 0xff, 0x10]), "000fa5ff10")
        XCTAssertEqual(Hexadecimal.lowercase([UInt8]()), "")
        XCTAssertEqual(Hexadecimal.lowercase(Array("abc".utf8)[1...]), "6263", "a slice starts where it starts")
    }
}
