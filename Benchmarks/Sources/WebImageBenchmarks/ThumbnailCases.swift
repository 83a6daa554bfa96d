import Foundation
import WebImage
import WebImageCodecs

/// `thumbnail.*.256.vips`: a bench file to 256 px on its long side, written in its own format
/// (JPEG and WebP at quality 80, PNG lossless), as `Benchmarks/vips_bench.py` has libvips do it:
/// a decode with ``ImageDecodeOptions/thumbnailPixelSize`` (shrink on load where the format
/// allows), then an encode. `peak.<case>` makes one thumbnail in a fresh process and reports its
/// peak resident memory and the output's bytes.
enum ThumbnailCases {
    /// The case names with their source file and format (Benchmarks/thumbnail_cases.py lists
    /// the same for libvips's side).
    static let files: [(name: String, file: String, format: ImageFormat)] = [
        ("thumbnail.jpeg.256.vips", "testjfif_full.jpg", .jpeg),
        ("thumbnail.jpeg.progressive.256.vips", "testjfif_full.progressive.jpg", .jpeg),
        ("thumbnail.webp.256.vips", "testjfif_full.webp", .webp),
        ("thumbnail.png.256.vips", "testjfif_1024.png", .png),
    ]

    static func all(fixtures: URL) -> [BenchmarkCase] {
        files.map { entry in
            BenchmarkCase(name: entry.name) {
                let data = try Data(contentsOf: fixtures.appendingPathComponent("bench/\(entry.file)"))
                return { _ = try thumbnail(of: data, as: entry.format) }
            }
        }
    }

    /// The peak resident memory (MiB) of this process after one thumbnail of `name`'s file,
    /// and the thumbnail's bytes, written to `output` when given (compare.py measures its
    /// PSNR); nil for a name that is no thumbnail case.
    static func peak(_ name: String, fixtures: URL, writingTo output: URL?) throws -> (mebibytes: Double, bytes: Int)? {
        guard let entry = files.first(where: { "peak." + $0.name == name }) else { return nil }
        let thumbnail = try thumbnail(of: try Data(contentsOf: fixtures.appendingPathComponent("bench/\(entry.file)")), as: entry.format)
        let mebibytes = try PeakMemory.mebibytes()
        try output.map { try thumbnail.write(to: $0) }
        return (mebibytes, thumbnail.count)
    }

    private static let coders = ImageCoders(WebImageCodecs.defaultCoders)

    private static func thumbnail(of data: Data, as format: ImageFormat) throws -> Data {
        let image = try coders.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(256)))
        return try coders.encode(image, as: format, options: ImageEncodeOptions(quality: 0.8))
    }
}
