import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// The shared colour corpus (`color/` beside `images/`: Adobe RGB, ProPhoto, Wide Gamut, the
/// red-green-swapping profile, CMYK FOGRA39, grey L*) against Pillow's ImageCms references
/// within each file's tolerance, and what `webimage info` and `decode` say of ICC profiles.
/// HEIC, AVIF and JPEG XL files are their coders' business (issue 18's format work): only
/// JPEG, PNG and WebP are checked here.
final class ColorCorpusTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private static let formats: Set = ["jpeg", "png", "webp"]

    func testEveryJPEGPNGAndWebPFileMatchesItsConvertedReference() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "the ICC colour corpus against ImageCms")
        let entries = try corpus.colorManifest().filter { Self.formats.contains($0.format ?? "") }
        XCTAssertGreaterThanOrEqual(entries.count, 9)
        var failures: [String] = []
        for entry in entries {
            let image = try coders.decode(Fixtures.data(corpus.color(entry.file)))
            XCTAssertNil(image.colorProfileWarning, entry.file)
            let reference = try coders.decode(Fixtures.data(corpus.color("ref/\(entry.name).f0.png")),
                                              options: ImageDecodeOptions(colorManagement: .preserve)).pixels
            let tolerance = try XCTUnwrap(entry.tolerance, entry.file)
            let difference = PixelDifference(image.pixels, reference)
            print("\(entry.file): \(difference) (tolerance \(tolerance.max), \(tolerance.mean))")
            if !difference.isWithin(maximum: tolerance.max, mean: tolerance.mean) {
                failures.append("\(entry.file): \(difference)")
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testInfoNamesTheProfileOfEveryCorpusFile() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "webimage info on the ICC colour corpus")
        for entry in try corpus.colorManifest() where Self.formats.contains(entry.format ?? "") {
            let info = try WebImageCLI.run(["info", corpus.color(entry.file).path])
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
