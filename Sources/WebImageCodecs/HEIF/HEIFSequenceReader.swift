import Foundation
import WebImage

/// Reads the pictures of a HEIF image sequence as an animation's frames: libde265 decodes
/// the samples in order, and a frame earlier than the last one read replays from the first
/// sample (a picture depends on those before it).
///
/// Frames are full canvases (a sequence has no disposal or blending), converted through the
/// sample entry's ICC profile. Sequences loop forever, as browsers and Apple's players play
/// them: the `edts` repetition is not read. An alpha auxiliary track is not read either, so
/// frames are opaque.
final class HEIFSequenceReader: ColorConvertingFrameReader {
    let canvasSize: PixelSize
    let loopCount = 0
    var frameCount: Int { sequence.samples.count }
    var color: EmbeddedColorProfile

    private let data: Data
    private let sequence: HEIFSequence
    /// The decoding pass under way, if any.
    private var pass: Pass?

    /// A libde265 decoder part-way through the samples.
    private struct Pass {
        let decoder: HEVCPictureDecoder
        /// The next sample to push.
        var nextSample = 0
        /// Pictures decoded and not yet taken, in display order.
        var pending: [PixelBuffer] = []
        /// The index of the last picture taken, and its pixels.
        var shown = -1
        var current: PixelBuffer?
    }

    /// A reader of `sequence`, read from `data`; throws when its pictures exceed the pixel
    /// limit of `options`.
    init(data: Data, sequence: HEIFSequence, options: ImageDecodeOptions) throws {
        try options.checkPixelLimit(sequence.size)
        self.data = data
        self.sequence = sequence
        canvasSize = sequence.size
        color = EmbeddedColorProfile(iccDataOfRGBA: sequence.iccProfile, management: options.colorManagement)
    }

    /// The sample's duration from the `stts` box.
    func duration(at index: Int) -> TimeInterval {
        sequence.durations.indices.contains(index) ? sequence.durations[index] : 0
    }

    func decodedFrame(at index: Int) throws -> PixelBuffer {
        guard (0..<frameCount).contains(index) else {
            throw ImageCodingError.corrupt(.heif, "no frame \(index) in a sequence of \(frameCount)")
        }
        // Taken out while it runs: a pass that fails part-way is dropped.
        var state: Pass
        if let running = pass.take(), index >= running.shown, running.shown >= 0 {
            state = running
        } else {
            state = Pass(decoder: try data.withUnsafeBytes { try HEVCPictureDecoder(sequence, in: $0) })
        }
        while state.shown < index {
            if state.pending.isEmpty {
                guard state.nextSample < frameCount else {
                    throw ImageCodingError.corrupt(.heif, "the samples decode to \(state.shown + 1) of \(frameCount) pictures")
                }
                try push(sampleAt: state.nextSample, to: state.decoder)
                state.nextSample += 1
                if state.nextSample == frameCount { state.decoder.finish() }
                state.pending = try state.decoder.decodePictures()
                continue
            }
            state.current = state.pending.removeFirst()
            state.shown += 1
        }
        pass = state
        guard let current = state.current else { throw ImageCodingError.corrupt(.heif, "no picture for frame \(index)") }
        return current
    }

    private func push(sampleAt index: Int, to decoder: HEVCPictureDecoder) throws {
        let range = sequence.samples[index]
        try data.withUnsafeBytes { bytes in
            try decoder.push(sample: UnsafeRawBufferPointer(rebasing: bytes[range]), lengthSize: sequence.nalLengthSize)
        }
    }
}
