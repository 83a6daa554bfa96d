import Foundation
import WebImage
import WebImageCodecs

/// One thing to fuzz: format detection and dispatch, one decoder, the EXIF orientation
/// parser, the ICC profile reader, or a URL on its way to a request. The same code runs under libFuzzer (`LibFuzzerEntry.swift`) and when replaying
/// files in a normal build (`FuzzReplay.swift`), so a crash the fuzzer finds reproduces in a
/// debug build.
enum FuzzTarget: String, CaseIterable {
    /// `ImageFormat(detecting:)` and the registry of every coder deciding who decodes the bytes.
    case detect
    /// ``JPEGCoder``: full decode, DCT-scaled thumbnail, partial (progressive) decode.
    case jpeg
    /// ``PNGCoder``: PNG and APNG, decoded whole, as a thumbnail, partially and frame by frame.
    case png
    /// ``GIFCoder``: still and animated GIF, decoded whole, as a thumbnail and frame by frame.
    case gif
    /// ``WebPCoder``: still, alpha and animated WebP, decoded whole, as a thumbnail, partially
    /// and frame by frame.
    case webp
    /// ``AVIFCoder``: AVIF stills and sequences over libavif.
    case avif
    /// ``HEIFCoder``: HEIC/HEIF stills over libheif (grids, transforms, alpha, thumbnails) and
    /// image sequences (the `moov` reader and libde265).
    case heic
    /// ``JXLCoder``: JPEG XL stills and animations over libjxl, whole and frame by frame.
    case jxl
    /// ``SVGCoder``: the sanitizer's scan under its limits, then librsvg drawing the rewrite,
    /// whole and as a thumbnail; and the sanitizer's rewrite for serving.
    case svg
    /// ``BMPCoder``: bitmaps of every depth, RLE4/RLE8 and bit fields, whole and as a thumbnail.
    case bmp
    /// ``TIFFCoder``: TIFF over libtiff in every layout Pillow writes, whole and as a thumbnail.
    case tiff
    /// ``EXIF/orientation(fromTIFF:)`` and ``EXIF/copyright(fromTIFF:)``: the TIFF-structured
    /// EXIF block every format carries.
    case exif
    /// ``ColorProfile/init(iccData:)`` and ``ColorConversion``: an embedded ICC profile read,
    /// then opened by lcms2 and used on pixels.
    case icc
    /// imgproxy's and thumbor's path parsers and ``HTTPImageDownloader``'s request building
    /// (first URL and a request modifier's), on fuzzed text: no URL may trap (see ``FuzzedURL``).
    case url

    /// Feeds `data` to this target and says what came of it. Bad input is expected to end in
    /// an ``ImageCodingError``; anything else that is wrong (another error type, an image that
    /// breaks its own invariants, a crash) stops the process so that the fuzzer reports it.
    func run(_ data: Data) -> String {
        switch self {
        case .detect: FuzzedDetection(data: data).run()
        case .jpeg: FuzzedDecoding(coder: JPEGCoder(), format: .jpeg, data: data).run()
        case .png: FuzzedDecoding(coder: PNGCoder(), format: .png, data: data).run()
        case .gif: FuzzedDecoding(coder: GIFCoder(), format: .gif, data: data).run()
        case .webp: FuzzedDecoding(coder: WebPCoder(), format: .webp, data: data).run()
        case .avif: FuzzedDecoding(coder: AVIFCoder(), format: .avif, data: data).run()
        case .heic:
            // One coder for both brands' formats: an image must report the one its bytes show.
            FuzzedDecoding(coder: HEIFCoder(), format: ImageFormat(detecting: data) == .heif ? .heif : .heic, data: data).run()
        case .jxl: FuzzedDecoding(coder: JXLCoder(), format: .jxl, data: data).run()
        case .svg: FuzzedSVG(data: data).run()
        case .bmp: FuzzedDecoding(coder: BMPCoder(), format: .bmp, data: data).run()
        case .tiff: FuzzedDecoding(coder: TIFFCoder(), format: .tiff, data: data).run()
        case .exif:
            "orientation \(EXIF.orientation(fromTIFF: data)), copyright \(EXIF.copyright(fromTIFF: data)?.count ?? 0) bytes, "
                + "upright \(EXIF.upright(fromTIFF: data, width: 1, height: 1)?.count ?? 0) bytes"
        case .icc: FuzzedColorProfile(data: data).run()
        case .url: FuzzedURL(data: data).run()
        }
    }

    /// The limits every fuzzed decode runs under: 512 × 512 pixels for all frames together.
    /// The fuzz build is an instrumented debug build, where resampling and compositing a
    /// megapixel takes seconds; what goes wrong in a parser goes wrong at small sizes too,
    /// and a file over the limit still has its headers read.
    static let options = ImageDecodeOptions(maxPixels: 1 << 18)

    /// A thumbnail of at most 32 × 32 pixels of the first frame, which takes the decoders'
    /// reduced-size paths (libjpeg's DCT scaling, libwebp's scaler).
    static let thumbnailOptions = ImageDecodeOptions(
        thumbnailPixelSize: PixelSize(32), firstFrameOnly: true, maxPixels: options.maxPixels)
}
