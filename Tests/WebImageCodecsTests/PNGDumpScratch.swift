import XCTest
import Foundation
import WebImage
@testable import WebImageCodecs

final class PNGDumpScratch: XCTestCase {
    func testDump() throws {
        let dir = "../shared/fixtures/images/png"
        var info: [[String: Any]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
            do {
                let image = try PNGCoder().decode(data, options: ImageDecodeOptions())
                try Data(image.frames[0].pixels.bytes).write(to: URL(fileURLWithPath: "/tmp/pngwork/\(name).f0.rgba"))
                try Data(image.frames.last!.pixels.bytes).write(to: URL(fileURLWithPath: "/tmp/pngwork/\(name).last.rgba"))
                info.append(["file": name, "w": image.pixelWidth, "h": image.pixelHeight, "frames": image.frames.count,
                             "loop": image.loopCount, "d": image.durations.map { $0 * 1000 }])
            } catch {
                info.append(["file": name, "error": "\(error)"])
            }
        }
        try JSONSerialization.data(withJSONObject: info).write(to: URL(fileURLWithPath: "/tmp/pngwork/info.json"))
    }
}
