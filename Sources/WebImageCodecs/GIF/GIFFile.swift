import CGIF
import Foundation
import WebImage

/// One pass of giflib over a GIF held in memory, record by record.
///
/// The record-by-record API (rather than `DGifSlurp`) lets the reader check every frame's size
/// before giflib decodes it, decode a frame a row at a time into the canvas, and skip frames
/// it does not need without running LZW over them. giflib reports errors by return code
/// (no `longjmp`), so it is called directly. The file is closed when this object goes away.
final class GIFFile {
    /// The logical screen size from the header, as stored (it may be zero).
    let screenSize: PixelSize
    /// The global colour table, if the file has one.
    let globalPalette: GIFPalette?
    /// The background colour index from the header.
    let backgroundIndex: Int
    /// The loop count of the first NETSCAPE2.0 (or ANIMEXTS1.0) block read so far, as stored.
    private(set) var loopCount: Int?
    /// How many frames' pixel data has been read or skipped to its block terminator: the
    /// frames of a download in progress that have arrived whole.
    private(set) var framesWithAllData = 0
    /// Whether the stream has reached its trailer: the file is whole.
    private(set) var reachedTrailer = false

    private let source: GIFDataSource
    private let file: UnsafeMutablePointer<GifFileType>
    private var framesRead = 0
    private var pendingControl: GIFGraphicsControl?
    /// Whether the LZW data of the last frame returned has not been read to its end yet.
    private var pixelsPending = false
    /// The decoder of the last frame returned when giflib refuses its minimum code size.
    private var wideCodeDecoder: GIFLZWDecoder?

    /// Opens `data` and reads its header, logical screen and global colour table.
    init(_ data: Data) throws(ImageCodingError) {
        let source = GIFDataSource(data)
        var code: Int32 = 0
        guard let file = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), readGIFBytes, &code) else {
            throw Self.failure(code, source)
        }
        self.source = source
        self.file = file
        screenSize = PixelSize(width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight))
        globalPalette = file.pointee.SColorMap.map { GIFPalette($0) }
        backgroundIndex = Int(file.pointee.SBackGroundColor)
    }

    deinit {
        var code: Int32 = 0
        DGifCloseFile(file, &code)
    }

    /// Reads up to the next image descriptor and returns that frame; `nil` at the end of the
    /// stream. Whatever is left of the previous frame's pixel data is skipped first.
    ///
    /// The stream ends at the trailer. A byte between records that starts none is skipped, as
    /// Pillow skips it (a second GIF header pasted after a frame hides the frames that follow
    /// it from giflib otherwise). Once a frame has been read, the stream also ends wherever the
    /// data stops making sense — a missing trailer, a block cut off or broken — since browsers
    /// and Pillow show such files too: the frames before it are kept (the last one partial if
    /// its data is cut). Before the first frame, such data throws: truncated when the bytes
    /// ran out, corrupt otherwise.
    func nextFrame() throws(ImageCodingError) -> GIFFrameInfo? {
        do throws(ImageCodingError) {
            try skipPixels()
            while true {
                var type = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(file, &type) == GIF_OK else {
                    // giflib has read the byte: go on with the next one.
                    if file.pointee.Error == D_GIF_ERR_WRONG_RECORD { continue }
                    throw failure()
                }
                switch type {
                case IMAGE_DESC_RECORD_TYPE:
                    return try readImageDescriptor()
                case EXTENSION_RECORD_TYPE:
                    try readExtension()
                case TERMINATE_RECORD_TYPE:
                    reachedTrailer = true
                    return nil
                default:
                    throw .corrupt(.gif, "unknown record type \(type.rawValue)")
                }
            }
        } catch {
            if framesRead > 0 { return nil }
            throw error
        }
    }

    /// Decodes the pixel rows of `frame` (the frame ``nextFrame()`` just returned) in stored
    /// order, handing `draw` each row among the first `visibleRows` rows of the frame as
    /// palette indices. Decoding stops after the last such row; the rest of the data is
    /// skipped by the next ``nextFrame()``. Pixel data that ends early, is cut off or holds a
    /// code LZW cannot decode also stops it: the rows drawn so far stay, as browsers show them.
    func readRows(of frame: GIFFrameInfo, visibleRows: Int,
                  _ draw: (_ row: Int, _ indices: UnsafeBufferPointer<UInt8>) -> Void) {
        guard pixelsPending, visibleRows > 0, frame.width > 0 else { return }
        if var decoder = wideCodeDecoder.take() {
            let indices = decoder.decode(count: frame.width * frame.height) { nextDataBlock() }
            indices.withUnsafeBufferPointer { indices in
                for (position, row) in frame.storedRowOrder.enumerated() where row < visibleRows {
                    let start = position * frame.width
                    guard start + frame.width <= indices.count else { return }
                    draw(row, UnsafeBufferPointer(rebasing: indices[start..<start + frame.width]))
                }
            }
            return
        }
        var line = [UInt8](repeating: 0, count: frame.width)
        var remaining = min(visibleRows, frame.height)
        let order = frame.storedRowOrder
        for (position, row) in order.enumerated() {
            let status = line.withUnsafeMutableBufferPointer {
                DGifGetLine(file, $0.baseAddress, Int32($0.count))
            }
            guard status == GIF_OK else { return }
            guard row < visibleRows else { continue }
            line.withUnsafeBufferPointer { draw(row, $0) }
            remaining -= 1
            if remaining == 0 {
                // giflib consumes the end of the data itself once the last row is read.
                if position == order.count - 1 { finishPixels() }
                return
            }
        }
        finishPixels()
    }

    /// Reads an image descriptor and the minimum code size of its data. giflib reads both but
    /// refuses a code size over 8 once it has read it; from 9 to ``GIFLZWDecoder/largestCodeSize``
    /// the frame is decoded by ``GIFLZWDecoder`` instead, as Pillow decodes it.
    private func readImageDescriptor() throws(ImageCodingError) -> GIFFrameInfo {
        // The descriptor's 9 bytes, the local colour table its flags announce, the code size.
        let flags = source.peek(8) ?? 0
        let codeSizeAt = 9 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0)
        let codeSize = source.peek(codeSizeAt).map(Int.init) ?? 0
        let dataStart = source.position + codeSizeAt + 1
        let read = DGifGetImageDesc(file) == GIF_OK
        if !read && source.isAtEnd { throw failure() }
        if codeSize > GIFLZWDecoder.largestCodeSize {
            throw .corrupt(.gif, "the LZW minimum code size \(codeSize) leaves no room for codes")
        }
        let wide = codeSize > 8
        guard read || (wide && source.position == dataStart) else { throw failure() }
        wideCodeDecoder = wide ? GIFLZWDecoder(minimumCodeSize: codeSize) : nil
        let descriptor = file.pointee.Image
        let frame = GIFFrameInfo(
            left: Int(descriptor.Left), top: Int(descriptor.Top),
            width: Int(descriptor.Width), height: Int(descriptor.Height),
            isInterlaced: descriptor.Interlace,
            localPalette: descriptor.ColorMap.map { GIFPalette($0) },
            control: pendingControl ?? GIFGraphicsControl())
        pendingControl = nil
        pixelsPending = true
        framesRead += 1
        return frame
    }

    /// Reads one extension: a graphics control block applies to the next frame; the first
    /// NETSCAPE2.0 / ANIMEXTS1.0 loop sub-block gives the loop count; others are skipped.
    private func readExtension() throws(ImageCodingError) {
        var function: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &function, &block) == GIF_OK else { throw failure() }
        var index = 0
        var isLoopApplication = false
        while let current = block {
            // giflib's sub-block: the length byte, then the data.
            let data = UnsafeBufferPointer(start: current + 1, count: Int(current[0]))
            switch function {
            case GRAPHICS_EXT_FUNC_CODE where index == 0:
                pendingControl = GIFGraphicsControl(data)
            case APPLICATION_EXT_FUNC_CODE where index == 0:
                let identifier = String(decoding: data, as: UTF8.self)
                isLoopApplication = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
            case APPLICATION_EXT_FUNC_CODE where isLoopApplication && loopCount == nil:
                if data.count >= 3, data[0] == 1 {
                    loopCount = Int(data[1]) | Int(data[2]) << 8
                }
            default:
                break
            }
            index += 1
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw failure() }
        }
    }

    /// The next sub-block of the current frame's LZW data, without its length byte; nil at the
    /// block terminator (the data is then read to its end) or when the bytes are cut or broken.
    private func nextDataBlock() -> UnsafeBufferPointer<UInt8>? {
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCodeNext(file, &block) == GIF_OK else { return nil }
        guard let block else {
            finishPixels()
            return nil
        }
        return UnsafeBufferPointer(start: block + 1, count: Int(block[0]))
    }

    /// Reads past the rest of the current frame's LZW data without decoding it.
    private func skipPixels() throws(ImageCodingError) {
        guard pixelsPending else { return }
        pixelsPending = false
        var block: UnsafeMutablePointer<GifByteType>?
        repeat {
            guard DGifGetCodeNext(file, &block) == GIF_OK else { throw failure() }
        } while block != nil
        framesWithAllData += 1
    }

    /// Records that the current frame's pixel data has been read to its end.
    private func finishPixels() {
        pixelsPending = false
        framesWithAllData += 1
    }

    private func failure() -> ImageCodingError {
        Self.failure(file.pointee.Error, source)
    }

    /// The typed error for giflib's error `code`: truncated when the data ran out.
    private static func failure(_ code: Int32, _ source: GIFDataSource) -> ImageCodingError {
        if source.isAtEnd { return .truncated(.gif) }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .corrupt(.gif, message)
    }
}
