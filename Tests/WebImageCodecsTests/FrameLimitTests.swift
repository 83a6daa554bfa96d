import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// ``ImageDecodeOptions/maxFrameCount`` in every animated coder: an animation over the limit
/// fails with a typed error before its frames are decoded; the first frame alone always passes.
final class FrameLimitTests: XCTestCase {
    private let coders: ImageCoders = {
        let coders = ImageCoders()
        WebImageCodecs.registerDefaults(in: coders)
        return coders
    }()

    func testAnimationsOverTheLimitAreRefusedAndTheFirstFrameAlwaysPasses() throws {
        for fixture in ["gif/sd_TestImage.gif", "png/apng_delay.png", "webp/sd_TestImageAnimated.webp"] {
            let data = try Fixtures.imageData(fixture)
            let frames = try coders.decode(data).frames.count
            XCTAssertGreaterThan(frames, 1, fixture)
            XCTAssertThrowsError(try coders.decode(data, options: ImageDecodeOptions(maxFrameCount: frames - 1)), fixture) {
                XCTAssertEqual($0 as? ImageCodingError, .tooManyFrames(count: frames, limit: frames - 1), fixture)
            }
            XCTAssertEqual(try coders.decode(data, options: ImageDecodeOptions(maxFrameCount: frames)).frames.count, frames, fixture)
            let first = try coders.decode(data, options: ImageDecodeOptions(firstFrameOnly: true, maxFrameCount: 1))
            XCTAssertEqual(first.frames.count, 1, fixture)
        }
        let error = WebImageError.badImageData(.tooManyFrames(count: 5, limit: 4))
        XCTAssertFalse(error.isPermanent, "a still image of the same URL is still possible")
        XCTAssertEqual(error.description, "the downloaded data is not a usable image: too many frames: 5 exceeds the limit of 4")
    }
}
