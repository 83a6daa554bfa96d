import Foundation
import XCTest

/// The test images. Unit tests read the subset kept in the repository (`Tests/Fixtures`, see its
/// README), so that a bare clone runs them; the corpus-wide tests read the full shared corpus,
/// found by ``fullCorpus``, and are skipped when it is absent.
public enum Fixtures {
    /// The package root, found from this source file's location: where the README is.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WebImageTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Tests/Fixtures`: the files the unit tests use, copied from the full corpus.
    public static let subset = FixtureCorpus(root: packageRoot.appendingPathComponent("Tests/Fixtures"))

    /// `$WEBIMAGE_FIXTURES` when it is set and not empty.
    private static let chosenCorpus = ProcessInfo.processInfo.environment["WEBIMAGE_FIXTURES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The full corpus, or nil: `$WEBIMAGE_FIXTURES` when set (`none` means no full corpus, as
    /// in a bare clone; a folder without the corpus fails the corpus-wide tests rather than
    /// skipping them), else `../shared/fixtures` beside the package root when that folder exists.
    public static let fullCorpus: URL? = {
        if let chosenCorpus {
            return chosenCorpus == "none" ? nil : URL(fileURLWithPath: chosenCorpus)
        }
        let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: shared.path, isDirectory: &isFolder) && isFolder.boolValue
            ? shared : nil
    }()

    /// The full corpus for a corpus-wide test that checks `what`; skips the test, saying how to
    /// run it, when ``fullCorpus`` is nil.
    public static func requireFullCorpus(for what: String) throws -> FixtureCorpus {
        guard let fullCorpus else {
            let reason = chosenCorpus == "none"
                ? "WEBIMAGE_FIXTURES=none leaves the full fixture corpus out" : "the full fixture corpus is absent"
            throw XCTSkip("corpus-wide test of \(what) skipped: \(reason) "
                + "(Tests/Fixtures holds only the unit tests' files). To run it, set WEBIMAGE_FIXTURES to the "
                + "corpus folder or put the corpus at ../shared/fixtures beside the checkout")
        }
        return FixtureCorpus(root: fullCorpus)
    }

    /// The bytes of `jpeg/sd_TestJFIF.jpg`, SDWebImage's 4032 × 3024 photo (2.5 MB, orientation 3
    /// in XMP only), from the full corpus: too large for the subset, so its tests skip without it.
    public static func twelveMegapixelPhoto() throws -> Data {
        try requireFullCorpus(for: "the 12 MP photo sd_TestJFIF.jpg").imageData("jpeg/sd_TestJFIF.jpg")
    }

    /// A file of the subset below `images/`, such as `"gif/sd_TestLoopCount.gif"`.
    public static func image(_ path: String) -> URL {
        subset.image(path)
    }

    /// A file of the subset below `bench/`, such as `"testjfif_256.jpg"`.
    public static func bench(_ name: String) -> URL {
        subset.bench(name)
    }

    /// A file of `Tests/Fixtures/generated`, which `scripts/make-conformance-fixtures.py` writes.
    public static func generated(_ name: String) -> URL {
        subset.root.appendingPathComponent("generated").appendingPathComponent(name)
    }

    /// The bytes of a file of `Tests/Fixtures/generated`, such as `"grey1_trns.png"`.
    public static func generatedData(_ name: String) throws -> Data {
        try data(generated(name))
    }

    /// A file of `Tests/Fixtures/color`, which `scripts/make-color-fixtures.py` writes, such as
    /// `"swapped_rgba.png"`, `"ref/swapped.png"` or `"profiles/srgb.icc"`.
    public static func color(_ name: String) -> URL {
        subset.root.appendingPathComponent("color").appendingPathComponent(name)
    }

    /// The bytes of a file of `Tests/Fixtures/color`.
    public static func colorData(_ name: String) throws -> Data {
        try data(color(name))
    }

    /// The bytes of a file of `Tests/Fixtures/formats`, which `scripts/make-format-fixtures.py`
    /// writes, such as `"heic/quadrants.heic"` or `"sources/quadrants.png"`.
    public static func formatData(_ path: String) throws -> Data {
        try data(subset.root.appendingPathComponent("formats").appendingPathComponent(path))
    }

    /// The bytes of `url`; fails the test loudly if the file is missing.
    public static func data(_ url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    /// The bytes of a file of the subset below `images/`, such as `"jpeg/pil_hopper.jpg"`.
    public static func imageData(_ path: String) throws -> Data {
        try subset.imageData(path)
    }

    /// The bytes of a file of the subset below `bench/`, such as `"testjfif_256.jpg"`.
    public static func benchData(_ name: String) throws -> Data {
        try subset.benchData(name)
    }
}

/// A fixture folder laid out as the shared corpus: `images/` (with `manifest.json` and `ref/`
/// in the full corpus) and `bench/`; `formats/` and `color/` are laid out as `images/`.
public struct FixtureCorpus: Sendable {
    /// The folder holding `images/` and `bench/`.
    public let root: URL
    /// The folder below ``root`` that ``image(_:)`` and the manifest read: `images` by default.
    public let imageFolder: String

    /// The corpus at `root`, its images in `imageFolder`.
    public init(root: URL, imageFolder: String = "images") {
        self.root = root
        self.imageFolder = imageFolder
    }

    /// The same corpus with its images read from `folder` (`formats`, `color`): another folder
    /// with a `manifest.json` and `ref/`.
    public func images(in folder: String) -> FixtureCorpus {
        FixtureCorpus(root: root, imageFolder: folder)
    }

    /// A file below `images/`, such as `"gif/sd_TestLoopCount.gif"` or a manifest entry's `file`.
    public func image(_ path: String) -> URL {
        root.appendingPathComponent(imageFolder).appendingPathComponent(path)
    }

    /// A file below `bench/`, such as `"testjfif_full.jpg"`.
    public func bench(_ name: String) -> URL {
        root.appendingPathComponent("bench").appendingPathComponent(name)
    }

    /// The bytes of a file below `images/`.
    public func imageData(_ path: String) throws -> Data {
        try Fixtures.data(image(path))
    }

    /// The bytes of a file below `bench/`.
    public func benchData(_ name: String) throws -> Data {
        try Fixtures.data(bench(name))
    }

    /// The entries of `images/manifest.json`.
    public func manifest() throws -> [ManifestEntry] {
        try JSONDecoder().decode(Manifest.self, from: Fixtures.data(image("manifest.json"))).images
    }

    /// The entries of `images/manifest.json` in one folder (`png`, `jpeg`, `gif`, `webp` or
    /// `other`; see ``ManifestEntry/kind``), in manifest order.
    public func manifest(kind: String) throws -> [ManifestEntry] {
        try manifest().filter { $0.kind == kind }
    }

    /// `images/ref/<name>.f0.png`: frame 0 of `entry` as Pillow decodes it.
    public func firstFrameReference(of entry: ManifestEntry) -> URL {
        image("ref/\(entry.name).f0.png")
    }

    /// `images/ref/<name>.last.png`: the last frame of `entry`, fully composited.
    public func lastFrameReference(of entry: ManifestEntry) -> URL {
        image("ref/\(entry.name).last.png")
    }

    private struct Manifest: Decodable {
        let images: [ManifestEntry]
    }
}

/// One image of the corpus as Pillow sees it (see the fixtures README).
public struct ManifestEntry: Decodable, Sendable {
    public let file: String
    public let decodes: Bool
    public let format: String?
    public let width: Int?
    public let height: Int?
    public let orientation: Int?
    public let frames: Int?
    public let loop: Int?
    public let durations_ms: [Double?]?
    public let first_frame_decodes: Bool?
    /// The reference converted to sRGB, for a file with an ICC profile (`images/`).
    public let srgb_ref: String?
    /// The embedded ICC profile's description (`color/`).
    public let icc_description: String?
    /// The per-file limits of `formats/` and `color/` manifests, which replace the per-format rules.
    public let tolerance: Tolerance?

    /// A manifest's per-file pixel tolerance: the largest difference of one channel and the mean.
    public struct Tolerance: Decodable, Sendable {
        public let max: Int
        public let mean: Double
    }

    /// The folder below `images/`: `png`, `jpeg`, `gif`, `webp` or `other`.
    public var kind: String { String(file.split(separator: "/")[0]) }

    /// The file name without its folder, as the references are named.
    public var name: String { String(file.split(separator: "/").last ?? "") }
}
