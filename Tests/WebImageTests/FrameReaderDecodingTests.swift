import Foundation
import WebImage
import XCTest

final class FrameReaderDecodingTests: XCTestCase {
    /// A synthetic animation: every frame is one flat colour numbered by its index.
    private final class CountingReader: AnimatedFrameReader {
        let canvasSize: PixelSize
        let frameCount: Int
        let loopCount = 0
        private(set) var framesRead = 0

        init(canvasSize: PixelSize, frameCount: Int) {
            self.canvasSize = canvasSize
            self.frameCount = frameCount
        }

        func duration(at index: Int) -> TimeInterval { index == 0 ? 0.005 : 0.05 }

        func frame(at index: Int) throws -> PixelBuffer {
            framesRead += 1
            return PixelBuffer(width: canvasSize.width, height: canvasSize.height, fill: RGBA(r: UInt8(index), g: 0, b: 0))
        }
    }

    func testAllFramesAreReadWithPlaybackDurations() throws {
        let reader = CountingReader(canvasSize: PixelSize(width: 4, height: 3), frameCount: 5)
        let image = try reader.decodeImage(format: .gif, options: ImageDecodeOptions())
        XCTAssertEqual(image.frames.count, 5)
        XCTAssertEqual(image.frames.map { $0.pixels[0, 0].r }, [0, 1, 2, 3, 4])
        XCTAssertEqual(image.durations, [0.1, 0.05, 0.05, 0.05, 0.05], "5 ms plays as 100 ms")
        XCTAssertEqual(image.loopCount, 0)
    }

    func testFirstFrameOnlyReadsOneFrame() throws {
        let reader = CountingReader(canvasSize: PixelSize(width: 4, height: 3), frameCount: 5)
        let image = try reader.decodeImage(format: .gif, options: ImageDecodeOptions(firstFrameOnly: true))
        XCTAssertEqual(image.frames.count, 1)
        XCTAssertEqual(reader.framesRead, 1)
        XCTAssertEqual(image.loopCount, 1)
    }

    func testThePixelLimitCoversAllFramesTogether() {
        // Each 5000 × 5000 frame is within 100 MP; 10 000 of them are not, and nothing is read.
        let reader = CountingReader(canvasSize: PixelSize(5000), frameCount: 10_000)
        XCTAssertThrowsError(try reader.decodeImage(format: .gif, options: ImageDecodeOptions())) { error in
            guard case .tooManyPixels = error as? ImageCodingError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(reader.framesRead, 0)
    }

    func testOrientationIsAppliedBeforeTheThumbnailSize() throws {
        let reader = CountingReader(canvasSize: PixelSize(width: 40, height: 20), frameCount: 1)
        let image = try reader.decodeImage(
            format: .jpeg, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(10)), orientation: .right)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 5, height: 10))
        XCTAssertEqual(image.orientation, .right)
    }
}
