import WebImage
import XCTest

final class DecodeOptionsTests: XCTestCase {
    func testThumbnailFitsTheBoxKeepingTheAspectRatio() {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))
        XCTAssertEqual(options.targetSize(for: PixelSize(width: 4000, height: 3000)), PixelSize(width: 256, height: 192))
        XCTAssertEqual(options.targetSize(for: PixelSize(width: 1000, height: 2000)), PixelSize(width: 128, height: 256))
    }

    func testThumbnailNeverUpscales() {
        let fit = ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))
        XCTAssertEqual(fit.targetSize(for: PixelSize(width: 100, height: 50)), PixelSize(width: 100, height: 50))
        let stretch = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 300, height: 40), preserveAspectRatio: false)
        XCTAssertEqual(stretch.targetSize(for: PixelSize(width: 100, height: 50)), PixelSize(width: 100, height: 40))
    }

    func testScaleDownLimitCountsEveryFrame() {
        let options = ImageDecodeOptions(scaleDownLimitBytes: 400 * 400 * 4)
        let one = options.targetSize(for: PixelSize(width: 800, height: 800))
        XCTAssertEqual(one, PixelSize(400))
        let four = options.targetSize(for: PixelSize(width: 800, height: 800), frameCount: 4)
        XCTAssertEqual(four, PixelSize(200))
        XCTAssertEqual(options.targetSize(for: PixelSize(width: 10, height: 10)), PixelSize(10), "small images are left alone")
    }

    func testPixelLimitRefusesBombsAndEmptyImages() {
        let options = ImageDecodeOptions()
        XCTAssertNoThrow(try options.checkPixelLimit(PixelSize(width: 10_000, height: 10_000)))
        XCTAssertThrowsError(try options.checkPixelLimit(PixelSize(width: 100_000, height: 100_000))) { error in
            XCTAssertEqual(error as? ImageCodingError, .tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000))
        }
        XCTAssertThrowsError(try options.checkPixelLimit(PixelSize(width: 0, height: 10)))
        XCTAssertThrowsError(try options.checkPixelLimit(PixelSize(width: Int.max, height: 3)), "overflow is refused")
    }

    func testFrameDurationsUnder11MillisecondsPlayAt100() {
        XCTAssertEqual(ImageFrame.playbackDuration(seconds: 0), 0.1)
        XCTAssertEqual(ImageFrame.playbackDuration(seconds: 0.010), 0.1)
        XCTAssertEqual(ImageFrame.playbackDuration(seconds: 0.011), 0.011)
        XCTAssertEqual(ImageFrame.playbackDuration(seconds: 0.5), 0.5)
    }

    func testMemoryCostCountsEveryFrame() {
        let frame = ImageFrame(pixels: PixelBuffer(width: 10, height: 5), duration: 0.1)
        XCTAssertEqual(Image(frames: [frame, frame, frame]).memoryCost, 600)
        XCTAssertEqual(Image(frames: [frame]).loopCount, 1, "a still plays once")
    }
}
