import WebImage

extension APNGAnimation {
    /// A standalone PNG holding one frame's image: the file's `IHDR` with the frame's size,
    /// the chunks every frame shares (`PLTE`, `tRNS`), the frame's `fdAT` data as `IDAT`
    /// chunks, and `IEND`. libpng decodes it like any PNG.
    func png(ofFrameData parts: [Range<Int>], size: PixelSize, header: PNGHeader,
             in file: UnsafeRawBufferPointer) -> [UInt8] {
        var writer = PNGWriter()
        var fields: [UInt8] = []
        fields.append(bigEndian: UInt32(size.width))
        fields.append(bigEndian: UInt32(size.height))
        fields += header.fields[8...]
        writer.append(.IHDR, fields)
        for chunk in sharedChunks { writer.append(chunk: file[chunk]) }
        for part in parts { writer.append(.IDAT, file[part]) }
        writer.append(.IEND, [])
        return writer.bytes
    }
}
