import Foundation
import WebImage
import XCTest

final class ImageCodersTests: XCTestCase {
    /// A coder that accepts everything and marks what it made with its tag in the first pixel.
    /// It exists to observe the registry's choice, not to stand in for a real codec.
    private struct TaggingCoder: ImageCoder {
        let tag: UInt8
        func canDecode(_ data: Data) -> Bool { true }
        func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
            Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(r: tag, g: 0, b: 0)))
        }
        func canEncode(_ format: ImageFormat) -> Bool { format == .png }
        func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data { Data([tag]) }
    }

    func testTheLastAddedCoderIsAskedFirst() throws {
        let coders = ImageCoders([TaggingCoder(tag: 1)])
        coders.add(TaggingCoder(tag: 2))
        XCTAssertEqual(try coders.decode(Data([1, 2, 3])).pixels[0, 0].r, 2)
        XCTAssertEqual(try coders.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .png), Data([2]))
        coders.remove(TaggingCoder.self)
        XCTAssertTrue(coders.all.isEmpty)
    }

    func testWithoutACoderTheErrorNamesTheFormat() {
        let coders = ImageCoders()
        XCTAssertThrowsError(try coders.decode(Data("\0\0\0\u{18}ftypheic....".utf8))) { error in
            XCTAssertEqual(error as? ImageCodingError, .unsupportedFormat(.heic))
            XCTAssertTrue("\(error)".contains("heic"))
        }
        XCTAssertThrowsError(try coders.decode(Data())) { XCTAssertEqual($0 as? ImageCodingError, .empty) }
        XCTAssertThrowsError(try coders.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .gif)) {
            XCTAssertEqual($0 as? ImageCodingError, .noEncoder(.gif))
        }
    }
}
