import Foundation
import WebImage

/// The image sequence of a HEIF file (brand `msf1`: an iPhone's animated HEICS, a burst): its
/// first HEVC track of pictures (handler `pict`, or `vide` as video tools write it) that is no
/// auxiliary (alpha or depth) track, read from the `moov` box with every offset, size and
/// count checked against the file before anything is allocated for it.
///
/// libheif 1.15, which decodes HEIF's still items, has no API for tracks (1.20 added one), so
/// the samples are read here and decoded by ``HEVCPictureDecoder``.
struct HEIFSequence: Sendable {
    /// The size of every picture, from the sample entry.
    let size: PixelSize
    /// The parameter sets (and SEI) the `hvcC` box holds, one NAL unit each.
    let parameterSets: [Range<Int>]
    /// The bytes of the length field before each NAL unit of a sample: 1, 2 or 4.
    let nalLengthSize: Int
    /// Each sample's bytes, in decoding order.
    let samples: [Range<Int>]
    /// Each sample's duration in seconds, in decoding order.
    let durations: [TimeInterval]
    /// The ICC profile of a `colr` box of the sample entry, if it has one.
    let iccProfile: [UInt8]?

    /// The sequence of `bytes`, or nil when the file has no `moov` box among its whole
    /// top-level boxes, or no track of HEVC pictures. Throws for a track that is broken.
    static func read(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImageCodingError) -> HEIFSequence? {
        guard let movie = topLevelBoxes(of: bytes).first("moov") else { return nil }
        for track in try movie.children(of: bytes, format: format) where track.type == "trak" {
            if let sequence = try TrackReader(bytes: bytes, format: format).read(track) { return sequence }
        }
        return nil
    }

    /// Whether `bytes` has a top-level `meta` box: items, a still image among them.
    static func fileHasItems(_ bytes: UnsafeRawBufferPointer) -> Bool {
        topLevelBoxes(of: bytes).first("meta") != nil
    }

    /// The top-level boxes up to the first that does not fit in the bytes (a file still
    /// downloading ends inside one) or states an impossible size.
    private static func topLevelBoxes(of bytes: UnsafeRawBufferPointer) -> [ISOBMFFBox] {
        var boxes: [ISOBMFFBox] = []
        while let box = ISOBMFFBox.box(at: boxes.last?.payload.upperBound ?? 0, before: bytes.count, of: bytes) {
            boxes.append(box)
        }
        return boxes
    }
}

/// Reads one `trak` box into a ``HEIFSequence``.
private struct TrackReader {
    let bytes: UnsafeRawBufferPointer
    let format: ImageFormat

    /// The track's sequence; nil when it is no track of HEVC pictures, or an auxiliary one.
    func read(_ track: ISOBMFFBox) throws(ImageCodingError) -> HEIFSequence? {
        let boxes = try track.children(of: bytes, format: format)
        if let references = boxes.first("tref"),
           try references.children(of: bytes, format: format).first("auxl") != nil {
            return nil
        }
        guard let media = boxes.first("mdia") else { return nil }
        let mediaBoxes = try media.children(of: bytes, format: format)
        guard let handler = mediaBoxes.first("hdlr"), let header = mediaBoxes.first("mdhd"),
              ["pict", "vide"].contains(try fourCC(in: handler, at: 8)),
              let information = mediaBoxes.first("minf"),
              let table = try information.children(of: bytes, format: format).first("stbl")
        else { return nil }
        let tables = try table.children(of: bytes, format: format)
        guard let description = tables.first("stsd"),
              let entry = try description.children(of: bytes, skipping: 8, format: format).first,
              entry.type == "hvc1" || entry.type == "hev1"
        else { return nil }
        // A visual sample entry: 24 bytes, the width and height, then 50 more before its boxes.
        let size = PixelSize(width: try integer(in: entry, at: 24, count: 2), height: try integer(in: entry, at: 26, count: 2))
        guard size.width > 0, size.height > 0 else { throw .corrupt(format, "the sequence's pictures are \(size)") }
        let entryBoxes = try entry.children(of: bytes, skipping: 78, format: format)
        guard let configuration = entryBoxes.first("hvcC") else { throw .corrupt(format, "the sequence has no hvcC box") }
        let (parameterSets, nalLengthSize) = try decoderConfiguration(configuration)
        let samples = try sampleRanges(tables)
        return HEIFSequence(size: size, parameterSets: parameterSets, nalLengthSize: nalLengthSize, samples: samples,
                            durations: try durations(tables, count: samples.count, timescale: try timescale(header)),
                            iccProfile: try iccProfile(entryBoxes.first("colr")))
    }

    /// The NAL units of an `hvcC` box's arrays and the length size of the samples' NAL units.
    private func decoderConfiguration(_ box: ISOBMFFBox) throws(ImageCodingError) -> ([Range<Int>], Int) {
        let lengthSize = (try integer(in: box, at: 21, count: 1) & 3) + 1
        guard lengthSize != 3 else { throw .corrupt(format, "hvcC states NAL lengths of 3 bytes") }
        var units: [Range<Int>] = []
        var offset = 23
        for _ in 0..<(try integer(in: box, at: 22, count: 1)) {
            let count = try integer(in: box, at: offset + 1, count: 2)
            offset += 3
            for _ in 0..<count {
                let length = try integer(in: box, at: offset, count: 2)
                let start = box.payload.lowerBound + offset + 2
                guard length <= box.payload.upperBound - start else { throw .corrupt(format, "an hvcC NAL unit runs past its box") }
                units.append(start..<start + length)
                offset += 2 + length
            }
        }
        return (units, lengthSize)
    }

    /// Where each sample lies: sizes from `stsz`, chunks from `stsc` and `stco`/`co64`.
    private func sampleRanges(_ tables: [ISOBMFFBox]) throws(ImageCodingError) -> [Range<Int>] {
        guard let sizes = tables.first("stsz"), let chunking = tables.first("stsc"),
              let offsets = tables.first("stco") ?? tables.first("co64")
        else { throw .corrupt(format, "the sequence's sample table is incomplete") }
        let fixedSize = try integer(in: sizes, at: 4, count: 4)
        let sampleCount = try integer(in: sizes, at: 8, count: 4)
        // Every sample is at least a byte of the file, so the count cannot ask for more entries.
        guard sampleCount <= bytes.count / max(1, fixedSize) else { throw .corrupt(format, "\(sampleCount) samples cannot fit the file") }
        let sampleSizes = fixedSize > 0
            ? [Int](repeating: fixedSize, count: sampleCount)
            : try entries(of: sizes, countAt: 8, width: 4)
        guard sampleSizes.count == sampleCount else { throw .corrupt(format, "stsz lists \(sampleSizes.count) of \(sampleCount) samples") }
        let wide = offsets.type == "co64"
        let chunkOffsets = try entries(of: offsets, countAt: 4, width: wide ? 8 : 4)
        let runs = try entries(of: chunking, countAt: 4, width: 4, fields: 3)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(sampleCount)
        for (index, run) in runs.enumerated() where ranges.count < sampleCount {
            let firstChunk = run[0], perChunk = run[1]
            let endChunk = min(index + 1 < runs.count ? runs[index + 1][0] : Int.max, chunkOffsets.count + 1)
            guard firstChunk >= 1, endChunk >= firstChunk else { throw .corrupt(format, "stsc's chunk runs are out of order") }
            for chunk in firstChunk..<endChunk where ranges.count < sampleCount {
                var offset = chunkOffsets[chunk - 1]
                for _ in 0..<min(perChunk, sampleCount - ranges.count) {
                    let length = sampleSizes[ranges.count]
                    guard offset <= bytes.count, length <= bytes.count - offset else { throw .truncated(format) }
                    ranges.append(offset..<offset + length)
                    offset += length
                }
            }
        }
        guard ranges.count == sampleCount else { throw .corrupt(format, "the chunks hold \(ranges.count) of \(sampleCount) samples") }
        return ranges
    }

    /// Each sample's duration from `stts`, in seconds; 0 for samples it does not reach.
    private func durations(_ tables: [ISOBMFFBox], count: Int, timescale: Int) throws(ImageCodingError) -> [TimeInterval] {
        guard let times = tables.first("stts"), timescale > 0 else { return [TimeInterval](repeating: 0, count: count) }
        var durations: [TimeInterval] = []
        durations.reserveCapacity(count)
        for run in try entries(of: times, countAt: 4, width: 4, fields: 2) where durations.count < count {
            let seconds = Double(run[1]) / Double(timescale)
            durations.append(contentsOf: repeatElement(seconds, count: min(run[0], count - durations.count)))
        }
        return durations + [TimeInterval](repeating: 0, count: count - durations.count)
    }

    /// The media timescale (units per second) of an `mdhd` box of version 0 or 1.
    private func timescale(_ header: ISOBMFFBox) throws(ImageCodingError) -> Int {
        try integer(in: header, at: try integer(in: header, at: 0, count: 1) == 1 ? 20 : 12, count: 4)
    }

    /// The ICC profile of a `colr` box of type `prof` or `rICC`; nil for `nclx` (code points,
    /// which the HEVC stream states too) or no box.
    private func iccProfile(_ box: ISOBMFFBox?) throws(ImageCodingError) -> [UInt8]? {
        guard let box, ["prof", "rICC"].contains(try fourCC(in: box, at: 0)) else { return nil }
        return [UInt8](bytes[box.payload.lowerBound + 4..<box.payload.upperBound])
    }

    /// The entries of a full box whose entry count is at `countAt`: `fields` integers of
    /// `width` bytes each, the count checked against the box's length first.
    private func entries(of box: ISOBMFFBox, countAt: Int, width: Int, fields: Int) throws(ImageCodingError) -> [[Int]] {
        let count = try integer(in: box, at: countAt, count: 4)
        let start = countAt + 4, entrySize = width * fields
        guard count <= (box.payload.count - start) / entrySize else { throw .corrupt(format, "a \(box.type) box lists more entries than it holds") }
        return (0..<count).map { entry in
            (0..<fields).map { field in
                Int(clamping: bytes.bigEndianInteger(at: box.payload.lowerBound + start + entry * entrySize + field * width, count: width))
            }
        }
    }

    /// The single-field entries of a full box (see the other overload).
    private func entries(of box: ISOBMFFBox, countAt: Int, width: Int) throws(ImageCodingError) -> [Int] {
        try entries(of: box, countAt: countAt, width: width, fields: 1).map { $0[0] }
    }

    /// The `count`-byte big-endian integer at `offset` of `box`'s payload.
    private func integer(in box: ISOBMFFBox, at offset: Int, count: Int) throws(ImageCodingError) -> Int {
        guard offset >= 0, offset + count <= box.payload.count else { throw .corrupt(format, "a \(box.type) box is too short") }
        return Int(clamping: bytes.bigEndianInteger(at: box.payload.lowerBound + offset, count: count))
    }

    /// The four-character code at `offset` of `box`'s payload.
    private func fourCC(in box: ISOBMFFBox, at offset: Int) throws(ImageCodingError) -> String {
        guard offset >= 0, offset + 4 <= box.payload.count else { throw .corrupt(format, "a \(box.type) box is too short") }
        return bytes.fourCC(at: box.payload.lowerBound + offset)
    }
}
