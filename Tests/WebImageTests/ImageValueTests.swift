import WebImage
import XCTest

/// `Image` is a value: a copy shares its storage until one side changes, and then only that
/// side changes.
final class ImageValueTests: XCTestCase {
    private func image() -> Image {
        Image(frames: [ImageFrame(pixels: PixelBuffer(width: 2, height: 1, fill: RGBA(r: 255, g: 255, b: 255)), duration: 0.1),
                       ImageFrame(pixels: PixelBuffer(width: 2, height: 1, fill: RGBA(r: 0, g: 0, b: 0)), duration: 0.2)],
              scale: 2, format: .gif, loopCount: 3)
    }

    func testChangingACopyLeavesTheOriginalAsItWas() {
        let original = image()
        var copy = original
        XCTAssertEqual(copy, original)
        copy.frames[0].duration = 0.5
        copy.scale = 3
        copy.format = .png
        copy.loopCount = 0
        copy.isIncomplete = true
        copy.colorProfileWarning = .unsupported("test")
        XCTAssertEqual(original.durations, [0.1, 0.2])
        XCTAssertEqual(original.scale, 2)
        XCTAssertEqual(original.format, .gif)
        XCTAssertEqual(original.loopCount, 3)
        XCTAssertFalse(original.isIncomplete)
        XCTAssertNil(original.colorProfileWarning)
        XCTAssertEqual(copy.durations, [0.5, 0.2])
        XCTAssertNotEqual(copy, original)
    }

    func testEqualImagesHashAlikeAndDifferentOnesDiffer() {
        let one = image(), two = image()
        XCTAssertEqual(one, two)
        XCTAssertEqual(Set([one, two]).count, 1)
        var changed = two
        changed.frames.removeLast()
        XCTAssertNotEqual(one, changed)
        XCTAssertEqual(Set([one, changed]).count, 2)
    }
}
