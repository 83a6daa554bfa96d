import Foundation
import WebImage

/// Runs one coder over fuzzed bytes through every public way of decoding them, and checks
/// what comes back.
struct FuzzedDecoding {
    /// The coder under test.
    let coder: any ImageCoder
    /// The format it decodes, which every image it returns must report.
    let format: ImageFormat
    /// The fuzzed bytes.
    let data: Data

    /// Decodes whole, as a thumbnail, partially (progressive coders) and frame by frame in an
    /// unusual order (animated coders); returns the outcome of the whole decode.
    func run() -> String {
        let outcome = attempt("decode") {
            let image = try coder.decode(data, options: FuzzTarget.options)
            check(image, box: nil)
            return "decoded \(image.pixelWidth)x\(image.pixelHeight), \(image.frames.count) frame(s)"
        }
        _ = attempt("thumbnail") {
            check(try coder.decode(data, options: FuzzTarget.thumbnailOptions), box: FuzzTarget.thumbnailOptions.thumbnailPixelSize)
            return ""
        }
        if let progressive = coder as? any ProgressiveImageCoder,
           let partial = progressive.decodePartial(data, options: FuzzTarget.options) {
            check(partial, box: nil)
        }
        if let animated = coder as? any AnimatedImageCoder {
            _ = attempt("frame reader") {
                try readFramesOutOfOrder(try animated.makeFrameReader(for: data, options: FuzzTarget.options))
                return ""
            }
        }
        return outcome
    }

    /// The last frame first, then the first and the middle one: a reader must composite any
    /// frame on demand. Skipped when all frames together exceed the pixel limit, since a
    /// reader rebuilds earlier frames to reach a later one.
    private func readFramesOutOfOrder(_ reader: any AnimatedFrameReader) throws {
        let canvas = reader.canvasSize
        let count = reader.frameCount
        guard count > 0, canvas.width > 0, canvas.height > 0,
              !canvas.area.multipliedReportingOverflow(by: count).overflow,
              canvas.area * count <= FuzzTarget.options.maxPixels else { return }
        for index in Set([count - 1, 0, count / 2]).sorted(by: >) {
            checkFrame(index, pixels: try reader.frame(at: index), duration: reader.duration(at: index), size: canvas)
        }
    }

    /// `body`'s outcome, or the error it threw, which must be an ``ImageCodingError``.
    private func attempt(_ what: String, _ body: () throws -> String) -> String {
        do {
            return try body()
        } catch let error as ImageCodingError {
            return "error: \(error)"
        } catch {
            invariant(false, "\(what) threw \(type(of: error)), not ImageCodingError: \(error)")
            return ""
        }
    }

    /// What every decoded image must be: frames of one non-empty size with whole pixel
    /// buffers, within the pixel limit (all frames together), inside `box` for a thumbnail,
    /// and labelled with the coder's format.
    private func check(_ image: Image, box: PixelSize?) {
        invariant(!image.frames.isEmpty, "an image without frames")
        invariant(image.format == format, "a \(format) coder returned a \(image.format) image")
        let width = image.pixelWidth, height = image.pixelHeight
        invariant(width > 0 && height > 0, "an image of \(width)x\(height)")
        invariant(width * height * image.frames.count <= FuzzTarget.options.maxPixels,
                  "\(image.frames.count) frame(s) of \(width)x\(height) exceed the pixel limit")
        if let box {
            invariant(width <= box.width && height <= box.height, "a thumbnail of \(width)x\(height) for a box of \(box)")
        }
        for (index, frame) in image.frames.enumerated() {
            checkFrame(index, pixels: frame.pixels, duration: frame.duration, size: PixelSize(width: width, height: height))
        }
    }

    /// What every frame must be: `size`, with a whole RGBA buffer, lasting a finite,
    /// non-negative time.
    private func checkFrame(_ index: Int, pixels: PixelBuffer, duration: Double, size: PixelSize) {
        invariant(pixels.width == size.width && pixels.height == size.height,
                  "frame \(index) is \(pixels.width)x\(pixels.height), expected \(size.width)x\(size.height)")
        invariant(pixels.bytes.count == size.width * size.height * 4, "frame \(index) has \(pixels.bytes.count) bytes")
        invariant(duration.isFinite && duration >= 0, "frame \(index) lasts \(duration) s")
    }
}

/// Stops the process with `message` when `condition` is false, in every build configuration:
/// the fuzzer reports it like a crash and keeps the input.
func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}
