import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Every file of the full corpus's `images/`, `formats/` and `color/` against their references'
/// facts and pixels (skipped without the full corpus; see ``Fixtures/fullCorpus``).
final class CorpusConformanceTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    func testTheWholeCorpusMatchesPillow() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "every image of the manifest against Pillow")
        try checkManifest(of: corpus, orientation: true)
    }

    /// `formats/`: HEIC, AVIF and JPEG XL against pillow_heif, Pillow and djxl, within each
    /// file's tolerance. Orientation is not compared: libheif and libjxl apply the transforms
    /// (the image says `.up`) where the manifest states the file's tag.
    func testTheFormatsFolderMatchesItsReferences() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "HEIC, AVIF and JPEG XL against their references")
        try checkManifest(of: corpus.images(in: "formats"), orientation: false)
    }

    /// `color/`: JPEG, PNG, WebP, HEIC, AVIF and JPEG XL files with embedded ICC profiles
    /// (Adobe RGB, ProPhoto, Wide Gamut, Display P3, a red-green-swapping profile, grey L*, CMYK)
    /// against their references converted to sRGB with Pillow's ImageCms, within each file's
    /// tolerance: a decoder that ignores a profile fails every one.
    func testTheColorFolderMatchesItsConvertedReferences() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "the ICC colour corpus against ImageCms")
        try checkManifest(of: corpus.images(in: "color"), orientation: true)
    }

    private func checkManifest(of corpus: FixtureCorpus, orientation: Bool) throws {
        var passed: [String: Int] = [:]
        var total: [String: Int] = [:]
        var failures: [String] = []
        for entry in try corpus.manifest() {
            total[entry.kind, default: 0] += 1
            if let problem = check(entry, in: corpus, orientation: orientation) {
                failures.append("\(entry.file): \(problem)")
            } else {
                passed[entry.kind, default: 0] += 1
            }
        }
        let summary = total.keys.sorted().map { "\($0) \(passed[$0, default: 0])/\(total[$0]!)" }
        print("\(corpus.imageFolder) conformance: " + summary.joined(separator: ", "))
        XCTAssertFalse(total.isEmpty, "no manifest entries in \(corpus.imageFolder)")
        XCTAssertEqual(failures, [], "\(corpus.imageFolder): \(summary)")
    }

    private func check(_ entry: ManifestEntry, in corpus: FixtureCorpus, orientation: Bool) -> String? {
        let data: Data
        do { data = try corpus.imageData(entry.file) } catch { return "unreadable fixture: \(error)" }
        if !entry.decodes {
            return checkRejected(data, entry)
        }
        let image: Image
        do { image = try coders.decode(data) } catch { return "decode failed: \(error)" }
        if let problem = checkFacts(image, entry, orientation: orientation) { return problem }
        // A file with an ICC profile decodes to sRGB: its reference is the converted one (SPEC §14).
        var references = [(0, entry.srgb_ref.map { corpus.image($0) } ?? corpus.firstFrameReference(of: entry))]
        if image.frames.count > 1 { references.append((image.frames.count - 1, corpus.lastFrameReference(of: entry))) }
        for (index, url) in references {
            if let problem = compare(image.frames[index].pixels, with: url, entry) { return "frame \(index): \(problem)" }
        }
        return nil
    }

    /// A file Pillow rejects must be rejected with a typed error, except in `other/`: formats
    /// Pillow lacks (HEIC, JPEG XL) may decode, as conformance.py allows.
    private func checkRejected(_ data: Data, _ entry: ManifestEntry) -> String? {
        do {
            let image = try coders.decode(data)
            if entry.kind == "other" { return nil }
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

    private func checkFacts(_ image: Image, _ entry: ManifestEntry, orientation checksOrientation: Bool) -> String? {
        if image.pixelWidth != entry.width || image.pixelHeight != entry.height {
            return "size \(image.pixelWidth)x\(image.pixelHeight) != \(entry.width ?? -1)x\(entry.height ?? -1)"
        }
        // A `.heif` brand (mif1) is the same format as the manifest's `heic`.
        let format = image.format == .heif ? "heic" : image.format.rawValue
        if format != entry.format { return "format \(image.format) != \(entry.format ?? "?")" }
        if image.frames.count != entry.frames { return "frames \(image.frames.count) != \(entry.frames ?? -1)" }
        if checksOrientation, let orientation = entry.orientation, Int(image.orientation.rawValue) != orientation {
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
        // References keep the source's profile beside Pillow's unconverted pixels: read them as stored.
        let raw = ImageDecodeOptions(colorManagement: .preserve)
        do { expected = try coders.decode(try Fixtures.data(reference), options: raw).pixels } catch { return "reference unreadable: \(error)" }
        guard expected.width == pixels.width, expected.height == pixels.height else { return "reference size differs" }
        let difference = PixelDifference(pixels, expected)
        let (maximum, mean) = entry.srgb_ref == nil ? Self.tolerance(entry) : Self.convertedTolerance
        return difference.isWithin(maximum: maximum, mean: mean) ? nil : "pixels differ: \(difference)"
    }

    /// The tolerance of a reference converted to sRGB (SPEC §14, as `conformance.py` applies it).
    static let convertedTolerance = (maximum: 32, mean: 0.75)

    /// The manifest's per-file tolerance, else the fixtures README's per-format rules.
    static func tolerance(_ entry: ManifestEntry) -> (maximum: Int, mean: Double) {
        if let tolerance = entry.tolerance { return (tolerance.max, tolerance.mean) }
        let name = entry.file.lowercased()
        switch entry.format {
        case "jpeg": return (name.contains("cmyk") ? 3 : 2, 0.5)
        case "webp" where !name.contains("lossless"): return (2, 0.5)
        case "avif": return (4, 1.0)
        default: return (1, 0.05)
        }
    }
}
