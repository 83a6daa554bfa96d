import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

extension XCTestCase {
    /// Asserts that `webimage info`'s header of the generated fixture `name` agrees with its
    /// decode `image` on size and frame count.
    func assertHeaderMatches(_ name: String, _ image: Image, file: StaticString = #filePath, line: UInt = #line) throws {
        let header = try ImageCoders(WebImageCodecs.defaultCoders).header(of: Fixtures.generatedData(name))
        XCTAssertEqual(header.frameCount, image.frames.count, "\(name) frames", file: file, line: line)
        XCTAssertEqual(header.pixelSize, PixelSize(width: image.pixelWidth, height: image.pixelHeight), name, file: file, line: line)
    }
}
