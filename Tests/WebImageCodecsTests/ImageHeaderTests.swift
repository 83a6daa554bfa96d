import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `ImageCoders.header(of:)` against full decodes, and on an image too large to decode.
final class ImageHeaderTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    func testTheHeaderSaysWhatTheDecodeGives() throws {
        let files = ["jpeg/pil_hopper.jpg", "jpeg/sd_TestImage.jpg", "png/pngsuite_basn0g01.png", "png/apng_delay.png",
                     "png/apng_num_plays.png", "gif/sd_TestImage.gif", "gif/sd_TestLoopCount.gif", "webp/pil_hopper.webp",
                     "webp/sd_TestAnimatedImageMemory.webp"]
            + (2...8).map { "jpeg/pil_hopper_orientation_\($0).jpg" }
        for file in files {
            let data = try Fixtures.imageData(file)
            let header = try coders.header(of: data), image = try coders.decode(data)
            XCTAssertEqual(header.format, image.format, file)
            XCTAssertEqual(header.pixelSize, PixelSize(width: image.pixelWidth, height: image.pixelHeight), file)
            XCTAssertEqual(header.orientation, image.orientation, file)
            XCTAssertEqual(header.frameCount, image.frames.count, file)
            XCTAssertEqual(header.loopCount, image.loopCount, file)
            XCTAssertEqual(header.durations, image.durations, file)
        }
    }

    func testAnImageOverThePixelLimitHasAHeader() throws {
        // 20,000 × 10,000 pixels declared by a GIF whose only frame is 1 × 1.
        var gif = [UInt8](try coders.encode(Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(r: 1, g: 2, b: 3))), as: .gif))
        gif.replaceSubrange(6..<10, with: [0x20, 0x4E, 0x10, 0x27])
        XCTAssertThrowsError(try coders.decode(Data(gif)), "200 megapixels are refused")
        let header = try coders.header(of: Data(gif))
        XCTAssertEqual(header.format, .gif)
        XCTAssertEqual(header.pixelSize, PixelSize(width: 20_000, height: 10_000))
        XCTAssertEqual(header.frameCount, 1)
        XCTAssertThrowsError(try coders.header(of: Data("not an image".utf8)))
    }
}
