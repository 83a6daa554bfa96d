import Foundation
import WebImage
import XCTest

/// An animation made from an image that is decoded already plays its frames as they are.
final class AnimatedImageFromFramesTests: XCTestCase {
    func testAnAnimationOverDecodedFramesPlaysThemWithoutDecoding() throws {
        let frames = (0..<3).map { index in
            ImageFrame(pixels: PixelBuffer(width: 6, height: 4, fill: RGBA(r: UInt8(40 * index), g: 9, b: 0)), duration: 0.25)
        }
        let image = Image(frames: frames, scale: 2, format: .gif, loopCount: 3)
        let animation = AnimatedImage(image: image)
        XCTAssertEqual(animation.frameCount, 3)
        XCTAssertEqual(animation.loopCount, 3)
        XCTAssertEqual(animation.durations, [0.25, 0.25, 0.25])
        XCTAssertEqual(animation.size, PixelSize(width: 6, height: 4))
        XCTAssertEqual(animation.scale, 2)
        XCTAssertEqual(animation.format, .gif)
        XCTAssertTrue(animation.data.isEmpty, "no bytes: nothing to decode")
        for index in [2, 0, 1] {
            XCTAssertEqual(try animation.frame(at: index), frames[index].pixels)
        }
    }
}
