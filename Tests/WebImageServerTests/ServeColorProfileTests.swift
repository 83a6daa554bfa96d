import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `color_profile`, in process: `srgb` embeds a profile and keeps the pixels; a
/// profile from the profiles folder (the corpus's red-green-swapped profile) converts the pixels
/// to it and embeds it, so that a colour-managed decode gives the colours back; names that are
/// not files in the folder, and CMYK, are refused.
final class ServeColorProfileTests: XCTestCase {
    private var folder: TemporaryFolder!
    private static let colour = RGBA(r: 200, g: 40, b: 30)

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = try folder.folder("images", copying: [:])
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 16, height: 16, fill: Self.colour)), as: .png)
            .write(to: root.appendingPathComponent("square.png"))
        var keeping = ImageDecodeOptions()
        keeping.colorManagement = .preserve
        let swapped = try XCTUnwrap(try ImageCoders.shared.decode(try Fixtures.colorData("swapped.jpg"), options: keeping).colorProfile)
        let profiles = try folder.folder("profiles", copying: [:])
        try swapped.data.write(to: profiles.appendingPathComponent("swapped.icc"))
    }

    private func answers(_ options: [String]) async throws -> [RouterAnswer] {
        let profiles = folder.appending("profiles").path
        return try await routerAnswers(in: folder, options.map { "/insecure/\($0)/f:png/plain/local:///square.png" }) {
            $0.output.colorProfilesDir = profiles
        }
    }

    /// The centre pixel as written, and as a colour-managed decode gives it.
    private static func centre(_ body: Data) throws -> (written: RGBA, managed: RGBA) {
        var keeping = ImageDecodeOptions()
        keeping.colorManagement = .preserve
        return (try ImageCoders.shared.decode(body, options: keeping).pixels[8, 8], try ImageCoders.shared.decode(body).pixels[8, 8])
    }

    private static func close(_ a: RGBA, _ b: RGBA, within tolerance: Int) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    func testSRGBIsEmbeddedAndAFoldersProfileConvertsThePixels() async throws {
        let out = try await answers(["rs:fit:16:16", "cp:srgb", "cp:swapped", "icc:swapped.icc"])
        XCTAssertTrue(out.allSatisfy { $0.status == .ok }, out.map { String(decoding: $0.body, as: UTF8.self) }.joined())
        let iccp = Data("iCCP".utf8)
        XCTAssertNil(out[0].body.range(of: iccp), "no profile by default")
        XCTAssertNotNil(out[1].body.range(of: iccp), "srgb is embedded")
        XCTAssertEqual(try Self.centre(out[1].body).written, Self.colour, "and the pixels stay")
        let swapped = try Self.centre(out[2].body)
        XCTAssertNotNil(out[2].body.range(of: iccp))
        XCTAssertTrue(Self.close(swapped.written, RGBA(r: 40, g: 200, b: 30), within: 4), "red and green swapped as written: \(swapped.written)")
        XCTAssertTrue(Self.close(swapped.managed, Self.colour, within: 4), "and back through the profile: \(swapped.managed)")
        XCTAssertEqual(out[3].body, out[2].body, "the extension may be given")
    }

    func testNamesOutsideTheFolderMissingProfilesAndCMYKAreRefused() async throws {
        let out = try await answers(["cp:missing", "cp:..%2Fetc%2Fpasswd", "cp:cmyk", "cp:.hidden"])
        XCTAssertEqual(out.map(\.status), [.unprocessableContent, .badRequest, .badRequest, .badRequest])
        XCTAssertFalse(String(decoding: out[0].body, as: UTF8.self).contains(folder.appending("profiles").path), "no path in the answer")
        XCTAssertEqual(try ImageServer.Configuration(environment: ["IMGPROXY_COLOR_PROFILES_DIR": "/srv/icc"]).output.colorProfilesDir, "/srv/icc")
    }
}
