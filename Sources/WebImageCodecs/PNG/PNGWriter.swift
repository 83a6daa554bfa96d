/// Builds a PNG file chunk by chunk, computing each chunk's length and CRC.
struct PNGWriter {
    /// The file so far, starting with the PNG signature.
    private(set) var bytes: [UInt8] = PNGChunkList.signature

    /// Appends a chunk of `type` whose data is `prefix` followed by `data`; together they must
    /// be under 2³¹ bytes (one chunk of a file held in memory always is).
    mutating func append(_ type: PNGChunkType, prefix: [UInt8] = [], _ data: some Collection<UInt8>) {
        bytes.append(bigEndian: UInt32(prefix.count + data.count))
        let start = bytes.count
        bytes += type.bytes
        bytes += prefix
        bytes += data
        let crc = bytes[start...].withUnsafeBufferPointer { CRC32.checksum($0) }
        bytes.append(bigEndian: crc)
    }

    /// Appends a whole chunk as another file holds it: length, type, data and CRC.
    mutating func append(chunk: some Collection<UInt8>) {
        bytes += chunk
    }

    /// The PNG file `png` with `chunks` (type and data) put right after its `IHDR`, where the
    /// ancillary chunks that must come before the image data (`iCCP`, `eXIf`) go.
    static func inserting(_ chunks: [(type: PNGChunkType, data: [UInt8])], afterHeaderOf png: [UInt8]) throws -> [UInt8] {
        guard !chunks.isEmpty else { return png }
        return try png.withUnsafeBytes { file in
            var writer = PNGWriter()
            for (index, chunk) in try PNGChunkList(file).chunks.enumerated() {
                writer.append(chunk: file[chunk.bytes])
                if index == 0 {
                    for (type, data) in chunks { writer.append(type, data) }
                }
            }
            return writer.bytes
        }
    }
}

extension [UInt8] {
    /// Appends `value` as four big-endian bytes.
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Appends `value` as two big-endian bytes.
    mutating func append(bigEndian value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
    }
}
