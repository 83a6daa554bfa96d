/// What an imgproxy `/info` URL asks to know of its source, with imgproxy's defaults: size,
/// format and dimensions from the header; EXIF, IPTC and XMP from the metadata blocks; the
/// rest (colours, hashes) only when asked, since they need the pixels.
///
/// The options an info URL shares with processing (`crop`, `cachebuster`, `expires`, `hashsum`,
/// `max_src_resolution`, `max_src_file_size`) are kept in the ``ProcessingOptions`` that
/// holds these, so that expiry, limits and the cache key work as for images.
public struct InfoOptions: Sendable, Hashable {
    /// `size`: the source's length in bytes.
    public var size = true
    /// `format`: the format's name and media type.
    public var format = true
    /// `dimensions`: width and height after the orientation, and the orientation.
    public var dimensions = true
    /// `exif`: the EXIF fields.
    public var exif = true
    /// `exif`'s second argument: EXIF field names as tags (`DateTimeOriginal`) rather than titles.
    public var exifCanonicalNames = false
    /// `iptc`: the IPTC-IIM fields.
    public var iptc = true
    /// `xmp`: the XMP properties, by namespace prefix.
    public var xmp = true
    /// `colorspace`: the colour space the file stores (`srgb`, `b-w`, `cmyk`).
    public var colorspace = false
    /// `bands`: the file's channels.
    public var bands = false
    /// `sample_format`: the file's sample type (`uchar`, `ushort`).
    public var sampleFormat = false
    /// `pages_number`: pages or frames.
    public var pagesNumber = false
    /// `alpha`: whether the image has an alpha channel.
    public var alpha = false
    /// `alpha`'s second argument: whether any pixel is actually transparent.
    public var checksTransparency = false
    /// `average`: the average colour.
    public var average = false
    /// `average`'s second argument: fully transparent pixels left out.
    public var averageIgnoresTransparent = true
    /// `palette`: the most colours the palette reports (2…256); 0 for no palette.
    public var paletteColors = 0
    /// `dominant_colors`: the six swatches (vibrant, muted, each light and dark).
    public var dominantColors = false
    /// `dominant_colors`' second argument: swatches not found are made from found ones.
    public var buildsMissingColors = false
    /// `blurhash`: the BlurHash's components across and down; 0 for none.
    public var blurHashComponents = (x: 0, y: 0)
    /// `thumb_hash`: the ThumbHash, in hex.
    public var thumbHash = false
    /// `perceptual_hash`: the 64-bit DCT hash, in hex.
    public var perceptualHash = false
    /// `calc_hashsums`: the digests of the source's bytes reported.
    public var hashsums: [SourceHashsum] = []
    /// `page`: the page or frame the pixel facts are taken from (0 is the first).
    public var page = 0

    /// imgproxy's defaults.
    public init() {}

    /// Whether any fact asked for needs the pixels decoded.
    var needsPixels: Bool {
        alpha || average || paletteColors > 0 || dominantColors || blurHashComponents.x > 0 || thumbHash || perceptualHash
    }

    /// Whether the answer comes from the header and the metadata blocks alone, whatever the
    /// format: nothing asked needs the pixels, the colour layout (which some formats give only
    /// with a decode) or a digest of every byte.
    var readsHeadersOnly: Bool {
        !needsPixels && !colorspace && !bands && !sampleFormat && hashsums.isEmpty
    }

    /// The parts that change the answer, for the cache key.
    var canonical: String {
        func bit(_ value: Bool) -> String { value ? "1" : "0" }
        let flags = [size, format, dimensions, exif, exifCanonicalNames, iptc, xmp, colorspace, bands, sampleFormat, pagesNumber,
                     alpha, checksTransparency, average, averageIgnoresTransparent, dominantColors, buildsMissingColors,
                     thumbHash, perceptualHash].map(bit).joined()
        return "\(flags):p\(paletteColors):bh\(blurHashComponents.x).\(blurHashComponents.y):"
            + "chs\(hashsums.map(\.rawValue).joined(separator: ".")):pg\(page)"
    }

    public static func == (lhs: InfoOptions, rhs: InfoOptions) -> Bool { lhs.canonical == rhs.canonical }
    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }
}
