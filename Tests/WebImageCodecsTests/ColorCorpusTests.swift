import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// What `webimage info` and `decode` say of ICC profiles, on the shared colour corpus (`color/`
/// beside `images/`, whose pixels ``CorpusConformanceTests`` checks) and on Tests/Fixtures/color.
final class ColorCorpusTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    func testInfoNamesTheProfileOfEveryCorpusFile() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "webimage info on the ICC colour corpus").images(in: "color")
        let entries = try corpus.manifest()
        XCTAssertEqual(entries.count, 14)
        for entry in entries {
            let info = try WebImageCLI.run(["info", corpus.image(entry.file).path])
            XCTAssertEqual(info.status, 0, info.error)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
            XCTAssertEqual(object["iccProfile"] as? String, entry.icc_description, entry.file)
        }
    }

    func testInfoNamesTheProfileOnlyWhenThereIsOne() throws {
        let info = try WebImageCLI.run(["info", Fixtures.color("swapped_animated.webp").path])
        XCTAssertEqual(info.status, 0, info.error)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["iccProfile"] as? String, "WebImage Swapped Red and Green")
        XCTAssertEqual(object["frames"] as? Int, 2)
        let plain = try WebImageCLI.run(["info", Fixtures.image("jpeg/pil_hopper.jpg").path])
        XCTAssertFalse(plain.output.contains("iccProfile"), plain.output)
        let cmyk = try WebImageCLI.run(["info", Fixtures.color("cmyk_lut.jpg").path])
        XCTAssertTrue(cmyk.output.contains("\"iccProfile\":\"WebImage CMYK (perceptual CLUT)\""), cmyk.output)
    }

    func testDecodeWritesSRGBOrKeepsTheProfileWhenAsked() throws {
        let folder = try TemporaryFolder(self).url
        let converted = folder.appendingPathComponent("converted.png"), kept = folder.appendingPathComponent("kept.png")
        let source = Fixtures.color("swapped_rgba.png").path
        XCTAssertEqual(try WebImageCLI.run(["decode", source, "-o", converted.path]).status, 0)
        XCTAssertEqual(try WebImageCLI.run(["decode", source, "-o", kept.path, "--keep-icc"]).status, 0)
        let preserve = ImageDecodeOptions(colorManagement: .preserve)
        XCTAssertNil(try coders.decode(Data(contentsOf: converted), options: preserve).colorProfile)
        XCTAssertEqual(try coders.decode(Data(contentsOf: kept), options: preserve).colorProfile?.description,
                       "WebImage Swapped Red and Green")
        XCTAssertEqual(try coders.decode(Data(contentsOf: kept)).pixels, try coders.decode(Data(contentsOf: converted)).pixels)
    }
}
