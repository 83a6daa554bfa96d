import Foundation
import WebImage
import WebImageCodecs

/// Decoding, thumbnailing and resizing cases, each matching one in `pillow_bench.py`, and the
/// smart crop of the 12 MP photo, whose reference is Pillow's 256 px resize of it (the small
/// copy alone that a smart crop scores).
enum CodingCases {
    static func all(fixtures: URL) -> [BenchmarkCase] {
        let bench = fixtures.appendingPathComponent("bench")
        let images = fixtures.appendingPathComponent("images")
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        func decode(_ name: String, _ file: URL, options: ImageDecodeOptions = ImageDecodeOptions()) -> BenchmarkCase {
            BenchmarkCase(name: name) {
                let data = try Data(contentsOf: file)
                return { _ = try coders.decode(data, options: options) }
            }
        }
        func resize(_ name: String, longEdge: Int) -> BenchmarkCase {
            BenchmarkCase(name: name) {
                let pixels = try coders.decode(try Data(contentsOf: bench.appendingPathComponent("testjfif_full.jpg"))).pixels
                let scale = Double(longEdge) / Double(max(pixels.width, pixels.height))
                let size = PixelSize(width: Int((Double(pixels.width) * scale).rounded()),
                                     height: Int((Double(pixels.height) * scale).rounded()))
                return { _ = Resampler.resize(pixels, to: size) }
            }
        }
        // A square smart crop of the decoded 12 MP photo: scoring included, no pixels copied.
        let smartCrop = BenchmarkCase(name: "smartcrop.full") {
            let pixels = try coders.decode(try Data(contentsOf: bench.appendingPathComponent("testjfif_full.jpg"))).pixels
            let side = min(pixels.width, pixels.height)
            return { _ = SmartCrop.region(of: PixelSize(side), in: pixels) }
        }
        // The 1024 px photo as AVIF at quality 80, speed 8 (imgproxy's default), one thread.
        let encodeAVIF = BenchmarkCase(name: "encode.avif.1024") {
            let image = try coders.decode(try Data(contentsOf: bench.appendingPathComponent("testjfif_1024.png")))
            return { _ = try coders.encode(image, as: .avif, options: ImageEncodeOptions(quality: 0.8)) }
        }
        return [
            decode("decode.jpeg.full", bench.appendingPathComponent("testjfif_full.jpg")),
            decode("decode.avif.photo", fixtures.appendingPathComponent("formats/avif/photo_8bit_420.avif")),
            encodeAVIF,
            decode("decode.jpeg.progressive", bench.appendingPathComponent("testjfif_full.progressive.jpg")),
            decode("decode.png.1024", bench.appendingPathComponent("testjfif_1024.png")),
            decode("decode.webp.full", bench.appendingPathComponent("testjfif_full.webp")),
            decode("decode.gif.animated", images.appendingPathComponent("gif/sd_1@2x.gif")),
            decode("thumbnail.jpeg.256", bench.appendingPathComponent("testjfif_full.jpg"),
                   options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))),
            resize("resize.1024", longEdge: 1024),
            resize("resize.256", longEdge: 256),
            smartCrop,
        ]
    }
}
