import Foundation
import WebImage
import WebImageCodecs

/// The cost of colour management: `decode.jpeg.icc` decodes the 12 MP photo with a wide-gamut
/// ICC profile embedded (converted to sRGB through lcms2), `ref.decode.jpeg.icc` the same
/// bytes without the profile. The goal is at most 1.3 times the time (a ratio of 0.77 or more).
enum ColorCases {
    /// `Tests/Fixtures/color/profiles/wide-gamut-v2.icc` (a matrix/TRC profile, as Display P3
    /// and Adobe RGB are), found from this source file four folders below the package root.
    static let profile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/color/profiles/wide-gamut-v2.icc")

    static func all(fixtures: URL) -> [BenchmarkCase] {
        let photo = fixtures.appendingPathComponent("bench/testjfif_full.jpg")
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        func decode(_ name: String, withProfile: Bool) -> BenchmarkCase {
            BenchmarkCase(name: name) {
                var data = try Data(contentsOf: photo)
                if withProfile { data = try embedding(Data(contentsOf: profile), in: data) }
                return { _ = try coders.decode(data) }
            }
        }
        return [decode("decode.jpeg.icc", withProfile: true), decode("ref.decode.jpeg.icc", withProfile: false)]
    }

    /// `jpeg` with `icc` in one `ICC_PROFILE` APP2 segment right after its SOI marker.
    static func embedding(_ icc: Data, in jpeg: Data) throws -> Data {
        let payload = Data("ICC_PROFILE\0".utf8) + [1, 1] + icc
        guard jpeg.count > 2, payload.count + 2 <= 0xFFFF else { throw CocoaError(.fileReadCorruptFile) }
        let length = payload.count + 2
        return jpeg.prefix(2) + [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }
}
