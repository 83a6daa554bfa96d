import Foundation

/// The shared fixture corpus at `../shared/fixtures` beside the package root.
public enum Fixtures {
    /// `../shared/fixtures`, found from this source file's location.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WebImageTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures")

    /// A file below `images/`, such as `"gif/sd_TestLoopCount.gif"`.
    public static func image(_ path: String) -> URL {
        root.appendingPathComponent("images").appendingPathComponent(path)
    }

    /// A file below `bench/`, such as `"testjfif_full.jpg"`.
    public static func bench(_ name: String) -> URL {
        root.appendingPathComponent("bench").appendingPathComponent(name)
    }

    /// The bytes of `url`; fails the test run loudly if the corpus is missing.
    public static func data(_ url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    /// The bytes of a file below `images/`, such as `"jpeg/pil_hopper.jpg"` or a manifest
    /// entry's `file`.
    public static func imageData(_ path: String) throws -> Data {
        try data(image(path))
    }

    /// The bytes of a file below `bench/`, such as `"testjfif_256.jpg"`.
    public static func benchData(_ name: String) throws -> Data {
        try data(bench(name))
    }

    /// The entries of `images/manifest.json`.
    public static func manifest() throws -> [ManifestEntry] {
        let data = try Data(contentsOf: root.appendingPathComponent("images/manifest.json"))
        return try JSONDecoder().decode(Manifest.self, from: data).images
    }

    /// The entries of `images/manifest.json` in one folder (`png`, `jpeg`, `gif`, `webp` or
    /// `other`; see ``ManifestEntry/kind``), in manifest order.
    public static func manifest(kind: String) throws -> [ManifestEntry] {
        try manifest().filter { $0.kind == kind }
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

    /// The folder below `images/`: `png`, `jpeg`, `gif`, `webp` or `other`.
    public var kind: String { String(file.split(separator: "/")[0]) }

    /// `images/ref/<name>.f0.png`.
    public var firstFrameReference: URL { Fixtures.image("ref/\(name).f0.png") }

    /// `images/ref/<name>.last.png`.
    public var lastFrameReference: URL { Fixtures.image("ref/\(name).last.png") }

    private var name: String { String(file.split(separator: "/").last ?? "") }
}
