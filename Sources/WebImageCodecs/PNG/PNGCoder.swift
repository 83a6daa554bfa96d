import Foundation
import WebImage

/// PNG and APNG over libpng: decodes every PNG colour type and bit depth to RGBA8 (16-bit
/// channels to their high byte, `tRNS` to alpha, no gamma applied, as Pillow does), composites
/// APNG frames from their `acTL`/`fcTL`/`fdAT` chunks (which Debian's libpng does not read),
/// converts through the `iCCP` profile to sRGB (see ``ColorManagement``), decodes partial
/// downloads with libpng's progressive reader, and encodes PNG and APNG.
public struct PNGCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// What reduces a still image to ``ImageEncodeOptions/paletteColors`` colours, if anything.
    public let quantizer: (any PaletteQuantizer)?

    /// A PNG coder; with `quantizer` (libimagequant's is `WebImageQuantization`'s
    /// `ImageQuantQuantizer`), it writes palette PNGs when ``ImageEncodeOptions/paletteColors``
    /// asks for them.
    public init(quantizer: (any PaletteQuantizer)? = nil) {
        self.quantizer = quantizer
    }

    /// Whether `data` starts with the PNG signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .png
    }

    /// Decodes a PNG, or every frame of an APNG (the first only with
    /// ``ImageDecodeOptions/firstFrameOnly``), checking the pixel limit on the `IHDR` size
    /// before any pixel is allocated. A still image shrunk for a thumbnail (or the scale-down
    /// limit) goes to the resampler a band of rows at a time, without its full-size pixels;
    /// animations, oriented and interlaced images are decoded in full, then resampled.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let reader = try PNGFrameReader(data: data, options: options)
        if let shrunk = try reader.decodeShrunkStill(options: options) { return shrunk }
        return try reader.decodeImage(format: .png, options: options, orientation: reader.orientation)
    }

    /// A reader of the frames of `data` (one frame for a still PNG).
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        let reader = try PNGFrameReader(data: data, options: options)
        try options.checkPixelLimit(reader.canvasSize)
        return reader
    }

    /// What a download in progress shows. An APNG with two or more frames whose data has
    /// arrived whole shows those frames as an animation, as SDWebImage's progressive animated
    /// coders do; otherwise the rows (or interlace passes) of the default image that have
    /// arrived, over transparent black, at the full image size. `nil` before the `IHDR` has
    /// arrived, when the image is over the pixel limit, or when libpng rejects the bytes.
    public func decodePartial(_ data: Data, options: ImageDecodeOptions) -> Image? {
        if let reader = try? PNGFrameReader(data: data, options: options, arrivedFramesOnly: true),
           reader.frameCount > 1, !options.firstFrameOnly,
           var image = try? reader.decodeImage(format: .png, options: options, orientation: reader.orientation) {
            image.isIncomplete = !reader.isWhole
            return image
        }
        let decoded = try? data.withUnsafeBytes { file -> (PixelBuffer, complete: Bool, ImageOrientation, EmbeddedColorProfile)? in
            let chunks = try PNGChunkList(file)
            let header = try PNGHeader(chunks, in: file)
            try options.checkPixelLimit(header.size)
            guard let (stored, complete) = LibPNG.decodePartial(file, size: header.size) else { return nil }
            var pixels = stored
            var color = EmbeddedColorProfile(samples: header.samples, management: options.colorManagement) {
                () throws(ColorProfileError) in try PNGColorProfile.read(chunks, in: file)
            }
            color.convert(&pixels)
            return (pixels, complete, chunks.exifOrientation(in: file), color)
        }
        guard let (stored, complete, orientation, color) = decoded else { return nil }
        var pixels = stored.applying(orientation)
        let target = options.targetSize(for: pixels.size)
        if target.width != pixels.width || target.height != pixels.height {
            pixels = Resampler.resize(pixels, to: target)
        }
        var image = Image(frames: [ImageFrame(pixels: pixels)], scale: options.scaleFactor, format: .png,
                          orientation: orientation, isIncomplete: !complete)
        color.label(&image)
        return image
    }

    /// Whether `format` is PNG.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .png
    }

    /// Encodes a still image as an 8-bit PNG (RGB when every pixel is opaque, RGBA otherwise),
    /// and an animation as an APNG unless ``ImageEncodeOptions/firstFrameOnly`` is set. An RGB
    /// ``Image/colorProfile`` is embedded as an `iCCP` chunk; sRGB pixels get none. A still
    /// carries ``ImageEncodeOptions/exif`` as an `eXIf` chunk and ``ImageEncodeOptions/dotsPerInch``
    /// as a `pHYs` chunk, and is Adam7-interlaced with
    /// ``ImageEncodeOptions/progressive``. With ``ImageEncodeOptions/paletteColors`` it is a
    /// palette PNG (colour type 3) of at most that many colours made by the ``quantizer``, each
    /// with its alpha in `tRNS`, at the fewest bits a pixel the palette needs (1, 2, 4 or 8);
    /// APNG frames stay truecolour.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .png else { throw ImageCodingError.noEncoder(format) }
        let (written, profile) = image.withEmbeddableProfile()
        if written.frames.count > 1 && !options.firstFrameOnly {
            return Data(try APNGEncoder.encode(written.frames, loopCount: written.loopCount, profile: profile))
        }
        let png: [UInt8]
        if let colors = options.paletteColors {
            guard let quantizer else {
                throw ImageCodingError.unsupportedFeature(.png, "a palette PNG needs a PaletteQuantizer, given to PNGCoder(quantizer:)")
            }
            png = try LibPNG.encode(try quantizer.quantize(written.pixels, maxColors: min(max(colors, 2), 256)), interlaced: options.progressive)
        } else {
            png = try LibPNG.encode(written.pixels, keepAlpha: written.pixels.hasTransparency, interlaced: options.progressive)
        }
        var chunks: [(type: PNGChunkType, data: [UInt8])] = []
        if let profile { chunks.append((.iCCP, try PNGColorProfile.chunkData(for: profile))) }
        if let exif = options.exif { chunks.append((.eXIf, exif)) }
        if let dpi = options.dotsPerInch, dpi > 0 { chunks.append((.pHYs, Self.physicalDimensions(dotsPerInch: dpi))) }
        return Data(try PNGWriter.inserting(chunks, afterHeaderOf: png))
    }

    /// A `pHYs` chunk's data for `dpi`: the same pixels a metre both ways, unit 1 (the metre).
    static func physicalDimensions(dotsPerInch dpi: Int) -> [UInt8] {
        let perMetre = UInt32(min((Double(dpi) / 0.0254).rounded(), Double(Int32.max)))
        let bytes = [UInt8(perMetre >> 24), UInt8(perMetre >> 16 & 0xFF), UInt8(perMetre >> 8 & 0xFF), UInt8(perMetre & 0xFF)]
        return bytes + bytes + [1]
    }
}
