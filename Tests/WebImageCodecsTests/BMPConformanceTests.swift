import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// ``BMPCoder`` against Pillow: a folder of bitmaps (saved by Pillow, or built byte by byte by
/// `References/make_bmp_corpus.py` in the layouts Pillow reads but does not write), each
/// decoded by us and by Pillow and compared pixel for pixel.
final class BMPConformanceTests: XCTestCase {
    private let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("References/make_bmp_corpus.py")

    func testEveryLayoutDecodesAsPillowDecodesIt() throws {
        let folder = try TemporaryFolder(self)
        _ = try Pillow.run(try String(contentsOf: script, encoding: .utf8), [folder.url.path])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".bmp") }.sorted()
        XCTAssertEqual(names.count, 14, "\(names)")
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        for name in names {
            let url = folder.appending(name)
            let data = try Data(contentsOf: url)
            let ours = try coders.decode(data)
            XCTAssertEqual(ours.format, .bmp, name)
            let pillow = try Pillow.frame(0, of: url)
            XCTAssertEqual(ours.pixelWidth, pillow.width, name)
            XCTAssertEqual(ours.pixelHeight, pillow.height, name)
            guard ours.pixelWidth == pillow.width, ours.pixelHeight == pillow.height else { continue }
            let difference = PixelDifference(ours.pixels, pillow)
            XCTAssertLessThanOrEqual(difference.maximum, 1, "\(name): \(difference)")
            let header = try coders.header(of: data)
            XCTAssertEqual(header.pixelSize, PixelSize(width: pillow.width, height: pillow.height), name)
        }
    }
}
