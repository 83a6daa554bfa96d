import WebImage

/// The chunks of a PNG file, in file order, up to `IEND` or to where the bytes stop making sense.
///
/// Every chunk listed lies wholly inside the bytes. Reading stops, without throwing, at a chunk
/// that does not fit: whether that matters is for the caller to decide (libpng reports a still
/// image's truncation itself; an animation needs every frame's chunks).
struct PNGChunkList: Sendable {
    /// How reading the chunks ended.
    enum Ending: Sendable {
        /// `IEND` was reached.
        case end
        /// The bytes stop before `IEND` (a download in progress, a cut file).
        case truncated
        /// A chunk length is impossible (over 2³¹ − 1).
        case malformed
    }

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks read, `IEND` included when reached.
    let chunks: [PNGChunk]
    /// How reading ended.
    let ending: Ending

    /// Reads the chunks of `bytes`, which must start with the PNG signature.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard bytes.count >= 8 else {
            if bytes.elementsEqual(Self.signature.prefix(bytes.count)) { throw .truncated(.png) }
            throw .unsupportedFormat(ImageFormat(detecting: Array(bytes)))
        }
        guard bytes.prefix(8).elementsEqual(Self.signature) else {
            throw .unsupportedFormat(ImageFormat(detecting: Array(bytes.prefix(512))))
        }
        var chunks: [PNGChunk] = []
        var offset = 8
        var ending = Ending.truncated
        while bytes.count - offset >= 12 {
            let length = bytes.bigEndianUInt32(at: offset)
            guard length <= 0x7FFF_FFFF else { ending = .malformed; break }
            guard Int(length) <= bytes.count - offset - 12 else { break }
            let chunk = PNGChunk(type: PNGChunkType(code: bytes.bigEndianUInt32(at: offset + 4)),
                                 start: offset, length: Int(length))
            chunks.append(chunk)
            offset = chunk.bytes.upperBound
            if chunk.type == .IEND { ending = .end; break }
        }
        self.chunks = chunks
        self.ending = ending
    }

    /// The orientation stated by the first `eXIf` chunk, `.up` without one.
    func exifOrientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        guard let exif = chunks.first(where: { $0.type == .eXIf }) else { return .up }
        return EXIF.orientation(fromTIFF: bytes[exif.data])
    }
}
