import Foundation
import WebImage
import WebImageTestSupport

/// The reference outputs of `scripts/analysis-reference.py generate`: fixtures of the full corpus
/// decoded by Pillow (raw RGBA, full size and as 100 px thumbnails) with what blurhash-python,
/// fast-thumbhash (evanw's Rust encoder), the thumbhash port and imagehash make of the same
/// pixels. Generated once per test process into one temporary folder (each run overwrites the
/// last's, about 60 MB), with the first Python that
/// has those libraries (`scripts/test` installs them in `.build/venv`); the decoders run the
/// same script.
enum References {
    /// One image of manifest.json: its decoded sizes and the Python libraries' outputs.
    struct Image: Decodable, Sendable {
        struct BlurHash: Decodable, Sendable {
            var x: Int, y: Int, hash: String
        }
        var name: String
        var source: String
        var width: Int
        var height: Int
        var phash: String
        var mean: [Double]
        var meanVisible: [Double]?
        var thumbWidth: Int?
        var thumbHeight: Int?
        var thumbPhash: String?
        var blurhash: [BlurHash]?
        var thumbhashPython: [UInt8]?
        var thumbhashRust: [UInt8]?
    }

    /// Why reference data could not be read or made.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    private static let script = Fixtures.packageRoot.appendingPathComponent("scripts/analysis-reference.py")

    /// The Python the script runs with, or why there is none.
    private static func python() throws -> URL {
        guard let python = Python.interpreter(importing: "blurhash, fast_thumbhash, thumbhash, imagehash, PIL") else {
            throw MachineGuard.notInstalled("a Python with blurhash-python, fast-thumbhash, thumbhash, imagehash and Pillow (scripts/test installs them in .build/venv)")
        }
        return python
    }

    /// The generated folder and its manifest, made on first use (or why they could not be: a
    /// skip when the corpus or the Python libraries are absent).
    private static let generated = Result { () throws -> (folder: URL, images: [Image]) in
        let corpus = try Fixtures.requireFullCorpus(for: "the image analyses against their Python references")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-analysis-references")
        let run = try ChildProcess.run(try python(), [script.path, "generate", folder.path],
                                       environment: ["WEBIMAGE_FIXTURES": corpus.root.path], timeout: 300)
        guard run.status == 0, let data = FileManager.default.contents(atPath: folder.appendingPathComponent("manifest.json").path) else {
            throw Missing(description: "\(script.lastPathComponent) generate failed: \(run.error.suffix(500))")
        }
        return (folder, try JSONDecoder().decode([Image].self, from: data))
    }

    private static var directory: URL {
        get throws { try generated.get().folder }
    }

    /// Every image of the manifest.
    static func images() throws -> [Image] {
        try generated.get().images
    }

    /// The images that have a thumbnail (all but the 12 MP photo).
    static func thumbnailed() throws -> [Image] {
        try images().filter { $0.thumbWidth != nil }
    }

    /// The image named `name`.
    static func image(_ name: String) throws -> Image {
        guard let image = try images().first(where: { $0.name == name }) else {
            throw Missing(description: "no image \(name) in the manifest")
        }
        return image
    }

    /// The full-size pixels of `image`.
    static func full(_ image: Image) throws -> PixelBuffer {
        try pixels("\(image.name).full.rgba", width: image.width, height: image.height)
    }

    /// The ≤ 100 × 100 thumbnail of `image`.
    static func thumbnail(_ image: Image) throws -> PixelBuffer {
        guard let width = image.thumbWidth, let height = image.thumbHeight else {
            throw Missing(description: "\(image.name) has no thumbnail")
        }
        return try pixels("\(image.name).thumb.rgba", width: width, height: height)
    }

    private static func pixels(_ file: String, width: Int, height: Int) throws -> PixelBuffer {
        let path = try directory.appendingPathComponent(file).path
        guard let data = FileManager.default.contents(atPath: path), data.count == width * height * 4 else {
            throw Missing(description: "\(path) is missing or not \(width) × \(height) RGBA")
        }
        return PixelBuffer(width: width, height: height, bytes: [UInt8](data))
    }

    /// What blurhash-python's decoder makes of `hash` at `width × height`: RGB bytes.
    static func decodeBlurHash(_ hash: String, width: Int, height: Int) throws -> [UInt8] {
        try runDecoder(["decode-blurhash", hash, String(width), String(height)])
    }

    /// What evanw's ThumbHash decoder makes of `hash`, resized to `width × height`: RGBA bytes.
    static func decodeThumbHash(_ hash: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        let hex = hash.map { String(format: "%02x", $0) }.joined()
        return try runDecoder(["decode-thumbhash", hex, String(width), String(height)])
    }

    private static func runDecoder(_ arguments: [String]) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("analysis-decode-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try ChildProcess.run(try python(), [script.path] + arguments + [output.path])
        guard run.status == 0, let data = FileManager.default.contents(atPath: output.path) else {
            throw Missing(description: "\(script.lastPathComponent) \(arguments.joined(separator: " ")) failed: \(run.error.suffix(500))")
        }
        return [UInt8](data)
    }

    /// The mean absolute difference of each of the first `channels` channels between two
    /// interleaved images of the same pixel count, `aStride` and `bStride` bytes a pixel.
    static func meanAbsoluteError(_ a: [UInt8], stride aStride: Int, _ b: [UInt8], stride bStride: Int, channels: Int) -> [Double] {
        let count = min(a.count / aStride, b.count / bStride)
        var sums = [Double](repeating: 0, count: channels)
        for i in 0..<count {
            for c in 0..<channels { sums[c] += abs(Double(a[i * aStride + c]) - Double(b[i * bStride + c])) }
        }
        return sums.map { $0 / Double(max(count, 1)) }
    }

    /// The mean of each of the first `channels` channels over each of `blocks × blocks` equal
    /// blocks of a `width × height` interleaved image of `stride` bytes a pixel, block by block.
    static func blockMeans(_ bytes: [UInt8], width: Int, height: Int, stride: Int, channels: Int, blocks: Int) -> [UInt8] {
        var means: [UInt8] = []
        for by in 0..<blocks {
            for bx in 0..<blocks {
                let xs = bx * width / blocks..<(bx + 1) * width / blocks, ys = by * height / blocks..<(by + 1) * height / blocks
                for c in 0..<channels {
                    var sum = 0
                    for y in ys { for x in xs { sum += Int(bytes[(y * width + x) * stride + c]) } }
                    means.append(UInt8(sum / max(1, xs.count * ys.count)))
                }
            }
        }
        return means
    }

    /// A buffer of horizontal bands, each `rows` tall and `width` wide, top to bottom.
    static func bands(width: Int, _ bands: [(colour: RGBA, rows: Int)]) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: bands.reduce(0) { $0 + $1.rows })
        var y = 0
        for band in bands {
            for _ in 0..<band.rows {
                for x in 0..<width { pixels[x, y] = band.colour }
                y += 1
            }
        }
        return pixels
    }
}
