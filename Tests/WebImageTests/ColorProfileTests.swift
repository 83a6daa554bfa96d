import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// ``ColorProfile`` reading the header and description of ICC profiles, and refusing damaged
/// ones with a typed error.
final class ColorProfileTests: XCTestCase {
    private func profile(_ name: String) throws -> ColorProfile {
        try ColorProfile(iccData: Fixtures.colorData("profiles/\(name).icc"))
    }

    func testReadsTheDescriptionOfVersion2And4Profiles() throws {
        let v4 = try profile("swapped-red-green-v4")
        XCTAssertEqual(v4.description, "WebImage Swapped Red and Green", "ICC v4: mluc")
        XCTAssertEqual(v4.colorSpace, .rgb)
        let v2 = try profile("wide-gamut-v2")
        XCTAssertEqual(v2.description, "WebImage Wide Gamut (gamma 2.2)", "ICC v2: desc")
        XCTAssertEqual(try profile("gray-gamma18").colorSpace, .gray)
        XCTAssertEqual(try profile("cmyk-lut").colorSpace, .cmyk)
        XCTAssertEqual(try profile("cmyk-lut").description, "WebImage CMYK (perceptual CLUT)")
        XCTAssertEqual(try profile("srgb").description, "sRGB built-in")
    }

    func testKeepsTheBytesAndComparesByThem() throws {
        let data = try Fixtures.colorData("profiles/srgb.icc")
        let a = try ColorProfile(iccData: data), b = try ColorProfile(iccData: data)
        XCTAssertEqual(a.data, data)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertNotEqual(a, try profile("wide-gamut-v2"))
    }

    func testRefusesWhatIsNotAnICCProfile() throws {
        let good = try Fixtures.colorData("profiles/wide-gamut-v2.icc")
        XCTAssertThrowsError(try ColorProfile(iccData: Data())) { assertMalformed($0) }
        XCTAssertThrowsError(try ColorProfile(iccData: good.prefix(131))) { assertMalformed($0) }
        var noSignature = good
        noSignature[36] = UInt8(ascii: "x")
        XCTAssertThrowsError(try ColorProfile(iccData: noSignature)) { assertMalformed($0) }
        var tinySize = good
        tinySize.replaceSubrange(0..<4, with: [0, 0, 0, 100])
        XCTAssertThrowsError(try ColorProfile(iccData: tinySize)) { assertMalformed($0) }
        var manyTags = good
        manyTags.replaceSubrange(128..<132, with: [0x10, 0, 0, 0])
        XCTAssertThrowsError(try ColorProfile(iccData: manyTags)) { assertMalformed($0) }
    }

    func testRefusesADescriptionTagOutsideTheProfile() throws {
        var data = try Fixtures.colorData("profiles/wide-gamut-v2.icc")
        let tags = Int(data[131])
        let index = try XCTUnwrap((0..<tags).first { data[132 + $0 * 12 ..< 136 + $0 * 12] == Data("desc".utf8) })
        data.replaceSubrange(136 + index * 12 ..< 140 + index * 12, with: [0, 0, 0xFF, 0xF0])
        XCTAssertThrowsError(try ColorProfile(iccData: data)) { assertMalformed($0) }
    }

    func testALongerBufferThanTheHeaderSaysIsReadUpToTheHeaderSize() throws {
        let data = try Fixtures.colorData("profiles/gray-gamma18.icc") + Data(repeating: 0xAB, count: 1000)
        XCTAssertEqual(try ColorProfile(iccData: data).description, "WebImage Gray gamma 1.8")
    }

    func testRefusesAProfileLargerThanTheLimit() {
        let size = ColorProfile.maximumByteCount + 1
        XCTAssertThrowsError(try ColorProfile(iccData: Data(count: size))) {
            XCTAssertEqual($0 as? ColorProfileError, .tooLarge(size))
        }
    }

    func testAnUnknownColorSpaceIsNamedBySignature() throws {
        var data = try Fixtures.colorData("profiles/wide-gamut-v2.icc")
        data.replaceSubrange(16..<20, with: Array("Lab ".utf8))
        XCTAssertEqual(try ColorProfile(iccData: data).colorSpace, .other("Lab"))
    }

    private func assertMalformed(_ error: Error, file: StaticString = #filePath, line: UInt = #line) {
        guard case .malformed = error as? ColorProfileError else {
            return XCTFail("expected ColorProfileError.malformed, got \(error)", file: file, line: line)
        }
    }
}
