import CWebP
import Foundation
import WebImage

/// Reads the frames of an animated (or still) WebP with libwebp's animation decoder, which
/// composites each frame onto the canvas with its disposal and blending applied.
///
/// Frames are decoded in order; asking for an earlier frame than the last one rewinds the
/// decoder and decodes forward again. Loop count, frame durations and the EXIF orientation
/// come from the container, through the decoder's demuxer. The `ICCP` profile converts each
/// composited canvas (a copy; the decoder's own stays as stored) to sRGB.
final class WebPFrameReader: AnimatedFrameReader {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    /// The EXIF orientation of the file, to be applied to every frame.
    let orientation: ImageOrientation
    /// The `ICCP` profile and what to do with it; every canvas returned goes through it.
    private var color: EmbeddedColorProfile

    private let bytes: WebPBytes
    private let decoder: OpaquePointer
    private let durations: [TimeInterval]
    /// The index the next `WebPAnimDecoderGetNext` call decodes.
    private var nextIndex = 0
    /// The canvas of frame `nextIndex - 1`, owned by `decoder` and valid until its next call.
    private var lastCanvas: UnsafePointer<UInt8>?

    /// Parses `data` and sets up the animation decoder; throws a typed error for damaged or
    /// truncated bytes and ``ImageCodingError/tooManyPixels(width:height:limit:)`` before the
    /// canvas is allocated when it exceeds `options.maxPixels`.
    init(data: Data, options: ImageDecodeOptions) throws(ImageCodingError) {
        guard !data.isEmpty else { throw .empty }
        bytes = WebPBytes(data)
        var input = bytes.webpData
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(input.bytes, input.size, &features)
        guard status == VP8_STATUS_OK else { throw .webp(status) }
        try options.checkPixelLimit(PixelSize(width: Int(features.width), height: Int(features.height)))

        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
            throw .corrupt(.webp, "libwebp version mismatch")
        }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&input, &decoderOptions) else {
            throw Self.containerError(bytes)
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.frame_count > 0,
              let demuxer = WebPAnimDecoderGetDemuxer(decoder),
              let durations = Self.durations(demuxer, count: Int(info.frame_count))
        else {
            WebPAnimDecoderDelete(decoder)
            throw .corrupt(.webp, "the animation has no readable frames")
        }
        self.decoder = decoder
        self.durations = durations
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        frameCount = Int(info.frame_count)
        loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        let metadata = WebPMetadata(demuxer: demuxer)
        orientation = metadata.orientation
        color = EmbeddedColorProfile(iccData: metadata.iccProfile, samples: .rgb, management: options.colorManagement)
    }

    var colorProfile: ColorProfile? { color.profileOfPixels }
    var colorProfileWarning: ColorProfileError? { color.warning }

    deinit { WebPAnimDecoderDelete(decoder) }

    func duration(at index: Int) -> TimeInterval {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard (0..<frameCount).contains(index) else {
            throw ImageCodingError.corrupt(.webp, "frame \(index) asked of an animation of \(frameCount) frames")
        }
        if index < nextIndex - 1 || (index == nextIndex - 1 && lastCanvas == nil) {
            WebPAnimDecoderReset(decoder)
            nextIndex = 0
            lastCanvas = nil
        }
        while nextIndex <= index {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                // Start afresh on the next request rather than build on a half-composited canvas.
                WebPAnimDecoderReset(decoder)
                nextIndex = 0
                lastCanvas = nil
                throw ImageCodingError.corrupt(.webp, "frame \(nextIndex) could not be decoded")
            }
            lastCanvas = UnsafePointer(canvas)
            nextIndex += 1
        }
        guard let lastCanvas else { throw ImageCodingError.corrupt(.webp, "frame \(index) could not be decoded") }
        let count = canvasSize.area * 4
        var pixels = PixelBuffer(width: canvasSize.width, height: canvasSize.height,
                                 bytes: [UInt8](UnsafeBufferPointer(start: lastCanvas, count: count)))
        color.convert(&pixels)
        return pixels
    }

    /// The display time of each of the `count` frames `demuxer` found, in seconds.
    private static func durations(_ demuxer: OpaquePointer, count: Int) -> [TimeInterval]? {
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseIterator(&iterator) }
        var durations: [TimeInterval] = []
        repeat {
            durations.append(TimeInterval(max(iterator.duration, 0)) / 1000)
        } while durations.count < count && WebPDemuxNextFrame(&iterator) != 0
        return durations.count == count ? durations : nil
    }

    /// Why libwebp could not open `bytes`: truncated when the container parses but ends early,
    /// corrupt otherwise.
    private static func containerError(_ bytes: WebPBytes) -> ImageCodingError {
        var input = bytes.webpData
        var state = WEBP_DEMUX_PARSING_HEADER
        if let demuxer = WebPDemuxPartial(&input, &state) { WebPDemuxDelete(demuxer) }
        switch state {
        case WEBP_DEMUX_PARSING_HEADER, WEBP_DEMUX_PARSED_HEADER: return .truncated(.webp)
        default: return .corrupt(.webp, "libwebp could not parse the animation")
        }
    }
}
