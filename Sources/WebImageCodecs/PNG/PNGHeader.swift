import WebImage

/// The facts of a PNG's `IHDR` chunk.
struct PNGHeader: Sendable {
    /// The image (canvas) size.
    let size: PixelSize
    /// The `IHDR` chunk's 13 bytes of data; frames of an animation reuse all but the size.
    let fields: [UInt8]

    /// How the decoded pixels hold their colour: grey for colour types 0 and 4, RGB otherwise.
    var samples: ColorSamples { fields[9] == 0 || fields[9] == 4 ? .gray : .rgb }

    /// Reads and checks the `IHDR` chunk, which must come first.
    init(_ chunks: PNGChunkList, in bytes: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard let first = chunks.chunks.first else {
            throw chunks.ending == .malformed ? .corrupt(.png, "bad IHDR chunk") : .truncated(.png)
        }
        guard first.type == .IHDR, first.length == 13 else {
            throw .corrupt(.png, "the file does not start with an IHDR chunk")
        }
        let at = first.data.lowerBound
        let width = bytes.bigEndianUInt32(at: at), height = bytes.bigEndianUInt32(at: at + 4)
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            throw .corrupt(.png, "IHDR states an invalid size \(width)x\(height)")
        }
        let depth = bytes[at + 8], colorType = bytes[at + 9]
        let depths: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard depths[colorType]?.contains(depth) == true else {
            throw .corrupt(.png, "IHDR states colour type \(colorType) with bit depth \(depth)")
        }
        guard bytes[at + 10] == 0, bytes[at + 11] == 0, bytes[at + 12] <= 1 else {
            throw .corrupt(.png, "IHDR states an unknown compression, filter or interlace method")
        }
        size = PixelSize(width: Int(width), height: Int(height))
        fields = Array(bytes[first.data])
    }
}
