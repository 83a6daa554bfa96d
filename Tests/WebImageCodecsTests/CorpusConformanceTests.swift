import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Every file of the full corpus's `images/` against Pillow's facts and pixels (skipped without
/// the full corpus; see ``Fixtures/fullCorpus``).
final class CorpusConformanceTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    func testTheWholeCorpusMatchesPillow() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "every image of the manifest against Pillow")
        var passed: [String: Int] = [:]
        var total: [String: Int] = [:]
        var failures: [String] = []
        for entry in try corpus.manifest() {
            total[entry.kind, default: 0] += 1
            if let problem = check(entry, in: corpus) {
                failures.append("\(entry.file): \(problem)")
            } else {
                passed[entry.kind, default: 0] += 1
            }
        }
        let summary = total.keys.sorted().map { "\($0) \(passed[$0, default: 0])/\(total[$0]!)" }
        print("corpus conformance: " + summary.joined(separator: ", "))
        XCTAssertEqual(failures, [], "corpus: \(summary)")
    }

    private func check(_ entry: ManifestEntry, in corpus: FixtureCorpus) -> String? {
        let data: Data
        do { data = try corpus.imageData(entry.file) } catch { return "unreadable fixture: \(error)" }
        if !entry.decodes {
            return checkRejected(data, entry)
        }
        let image: Image
        do { image = try coders.decode(data) } catch { return "decode failed: \(error)" }
        if let problem = checkFacts(image, entry) { return problem }
        var references = [(0, corpus.firstFrameReference(of: entry))]
        if image.frames.count > 1 { references.append((image.frames.count - 1, corpus.lastFrameReference(of: entry))) }
        for (index, url) in references {
            if let problem = compare(image.frames[index].pixels, with: url, entry) { return "frame \(index): \(problem)" }
        }
        return nil
    }

    private func checkRejected(_ data: Data, _ entry: ManifestEntry) -> String? {
        do {
            let image = try coders.decode(data)
            return "accepted input that should be rejected (\(image.pixelWidth)x\(image.pixelHeight))"
        } catch {
            if entry.kind == "other" {
                let format = ImageFormat(detecting: data)
                guard error == .unsupportedFormat(format), format != .undefined else {
                    return "expected unsupported format naming it, got: \(error)"
                }
            }
            return nil
        }
    }

    private func checkFacts(_ image: Image, _ entry: ManifestEntry) -> String? {
        if image.pixelWidth != entry.width || image.pixelHeight != entry.height {
            return "size \(image.pixelWidth)x\(image.pixelHeight) != \(entry.width ?? -1)x\(entry.height ?? -1)"
        }
        if image.format.rawValue != entry.format { return "format \(image.format) != \(entry.format ?? "?")" }
        if image.frames.count != entry.frames { return "frames \(image.frames.count) != \(entry.frames ?? -1)" }
        if let orientation = entry.orientation, Int(image.orientation.rawValue) != orientation {
            return "orientation \(image.orientation.rawValue) != \(orientation)"
        }
        guard image.frames.count > 1 else { return nil }
        if image.loopCount != entry.loop ?? 1 { return "loop \(image.loopCount) != \(entry.loop ?? 1)" }
        for (index, want) in (entry.durations_ms ?? []).enumerated() {
            guard let want else { continue }
            let expected = want < 11 ? 100 : want.rounded()
            let got = (image.frames[index].duration * 1000).rounded()
            if abs(got - expected) > 1 { return "duration of frame \(index) \(got) ms != \(expected) ms" }
        }
        return nil
    }

    private func compare(_ pixels: PixelBuffer, with reference: URL, _ entry: ManifestEntry) -> String? {
        let expected: PixelBuffer
        do { expected = try coders.decode(try Fixtures.data(reference)).pixels } catch { return "reference unreadable: \(error)" }
        guard expected.width == pixels.width, expected.height == pixels.height else { return "reference size differs" }
        let difference = PixelDifference(pixels, expected)
        let (maximum, mean) = Self.tolerance(entry)
        return difference.isWithin(maximum: maximum, mean: mean) ? nil : "pixels differ: \(difference)"
    }

    /// The fixtures README's tolerances.
    static func tolerance(_ entry: ManifestEntry) -> (maximum: Int, mean: Double) {
        let name = entry.file.lowercased()
        switch entry.format {
        case "jpeg": return (name.contains("cmyk") ? 3 : 2, 0.5)
        case "webp" where !name.contains("lossless"): return (2, 0.5)
        case "avif": return (4, 1.0)
        default: return (1, 0.05)
        }
    }
}
