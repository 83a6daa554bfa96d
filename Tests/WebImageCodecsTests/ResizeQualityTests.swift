import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Our Lanczos resize against Pillow's `Image.resize(size, Image.LANCZOS)`: the references in
/// `References/resize/` were written by `scripts/make-resize-references.py`.
final class ResizeQualityTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private static let references = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("References/resize")
    /// The 256 px renditions of the two photos, reduced 4 times as the references are.
    private static let names = ["testjfif_256", "testimagelarge_256"]
    private static let longEdge = 64

    /// The size with a 64-pixel long edge, rounded as the reference script rounds it.
    private func target(_ pixels: PixelBuffer) -> PixelSize {
        let long = max(pixels.width, pixels.height), short = min(pixels.width, pixels.height)
        let side = Int((Double(short) * Double(Self.longEdge) / Double(long)).rounded(.toNearestOrAwayFromZero))
        return pixels.width >= pixels.height
            ? PixelSize(width: Self.longEdge, height: side) : PixelSize(width: side, height: Self.longEdge)
    }

    /// Peak signal-to-noise ratio in dB over the premultiplied channels (what is seen: colour
    /// under an almost transparent pixel hardly matters) and alpha.
    private func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var squares = 0.0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            let alphaA = Double(a.bytes[i + 3]) / 255, alphaB = Double(b.bytes[i + 3]) / 255
            for c in 0..<3 {
                let d = Double(a.bytes[i + c]) * alphaA - Double(b.bytes[i + c]) * alphaB
                squares += d * d
            }
            let d = Double(a.bytes[i + 3]) - Double(b.bytes[i + 3])
            squares += d * d
        }
        let mse = squares / Double(a.bytes.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    private func compare(_ name: String, suffix: String, prepare: (PixelBuffer) -> PixelBuffer) throws -> Double {
        // Pillow resized the stored pixels, not converted through the photo's Display P3 profile.
        let stored = ImageDecodeOptions(colorManagement: .preserve)
        let source = prepare(try coders.decode(Fixtures.benchData("\(name).png"), options: stored).pixels)
        let reference = try coders.decode(Data(contentsOf: Self.references.appendingPathComponent("\(name)_\(Self.longEdge)\(suffix).png")), options: stored).pixels
        let ours = Resampler.resize(source, to: target(source))
        XCTAssertEqual([ours.width, ours.height], [reference.width, reference.height], name)
        let value = psnr(ours, reference)
        print("PSNR \(name)\(suffix) against Pillow LANCZOS: \(String(format: "%.2f", value)) dB")
        return value
    }

    func testResizeTo64MatchesPillowLanczos() throws {
        for name in Self.names {
            XCTAssertGreaterThanOrEqual(try compare(name, suffix: "") { $0 }, 40, name)
        }
    }

    func testResizeWithAlphaMatchesPillowLanczos() throws {
        // The alpha ramp the reference script adds: (x + y) * 255 / (w + h - 2).
        for name in Self.names {
            let value = try compare(name, suffix: "_rgba") { pixels in
                var out = pixels
                let total = pixels.width + pixels.height - 2
                for y in 0..<pixels.height {
                    for x in 0..<pixels.width { out.bytes[(y * pixels.width + x) * 4 + 3] = UInt8((x + y) * 255 / total) }
                }
                return out
            }
            XCTAssertGreaterThanOrEqual(value, 40, name)
        }
    }
}
