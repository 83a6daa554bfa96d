import Foundation
import WebImage
import WebImageCodecs

/// The making of an `/info` answer from its source's bytes, inside a processing slot: only as
/// much work as the options ask for. Size, format, dimensions, pages and metadata come from the
/// header and the metadata blocks; pixels are decoded only for colours, hashes, alpha and crops,
/// at the smallest size that answers (a shrinking decode to ``analysisBox``), full size only
/// for a crop or a transparency check.
extension ImageProcessor {
    /// The side of the box a source is shrunk into on load for its colours and hashes, as for
    /// library users (``ImageCoders/analysisDecodeBox``): the decoder reads the smallest size
    /// that still covers it. The perceptual hash works on those pixels (it shrinks them to
    /// 32 × 32 itself); BlurHash, ThumbHash, the average, the palette and the dominant colours
    /// on a 100-pixel thumbnail of them.
    static let analysisBox = ImageCoders.analysisDecodeBox

    /// The description `url` asks for of `source`, as JSON.
    func describe(_ source: ImageDataResult, url: ProcessingURL, info: InfoOptions) throws(ProcessingError) -> ProcessedImage {
        let data = source.data
        let header: ImageHeader
        do {
            header = try manager.coders.header(of: data)
        } catch let error as ImageCodingError {
            throw ProcessingError(loading: .badImageData(error))
        } catch {
            throw .notAnImage("its header cannot be read")
        }
        let sourcePixels = url.options.sourceLimits.maxSrcResolution.map { Int($0 * 1_000_000) } ?? maxSourcePixels
        let declared = header.pixelSize.area.multipliedReportingOverflow(by: header.frameCount)
        guard !declared.overflow, declared.partialValue <= sourcePixels else {
            throw .sourceTooLarge("the source declares \(header.pixelSize) × \(header.frameCount) frame(s), over \(sourcePixels) pixels")
        }
        guard info.page < max(header.frameCount, 1) else {
            throw .unprocessable("page \(info.page) asked of a source with \(header.frameCount)")
        }
        var description = SourceDescription()
        if info.size { description.size = data.count }
        if info.format {
            description.format = header.format.rawValue
            description.mime_type = ProcessedImage.mediaType(of: header.format)
        }
        if info.dimensions {
            description.width = header.pixelSize.width
            description.height = header.pixelSize.height
            description.orientation = Int(header.orientation.rawValue)
        }
        if info.pagesNumber { description.pages_number = header.frameCount }
        describeMetadata(data, info: info, into: &description)

        let layout = SourceLayout.declared(by: data, format: header.format)
        let needsAlpha = (info.colorspace || info.bands || info.sampleFormat) && layout == nil
        if info.needsPixels || needsAlpha || url.options.crop != nil {
            let pixels = try analysisPixels(of: data, page: info.page, fullSize: url.options.crop != nil || info.checksTransparency,
                                            limit: sourcePixels)
            try describePixels(pixels, info: info, options: url.options, into: &description)
            if needsAlpha { description.setLayout(SourceLayout(profile: header.colorProfile, hasAlpha: pixels.hasTransparency), info: info) }
        }
        if let layout { description.setLayout(layout, info: info) }
        if !info.hashsums.isEmpty {
            description.hashsums = Dictionary(uniqueKeysWithValues: info.hashsums.map { ($0.rawValue, $0.hex(of: data)) })
        }
        return ProcessedImage(data: description.json(), format: .undefined, sourceOrigin: source.source)
    }

    /// The page `page` of `data` decoded upright, shrunk on load into ``analysisBox`` unless
    /// `fullSize`, within `limit` pixels.
    private func analysisPixels(of data: Data, page: Int, fullSize: Bool, limit: Int) throws(ProcessingError) -> PixelBuffer {
        var options = ImageDecodeOptions()
        options.maxPixels = limit
        options.maxSourcePixels = limit
        options.firstFrameOnly = page == 0
        options.maxFrameCount = page + 1
        if !fullSize { options.thumbnailPixelSize = PixelSize(width: Self.analysisBox, height: Self.analysisBox) }
        let image: Image
        do {
            image = try tracing.span("Decoding image") { () throws(ImageCodingError) -> Image in try manager.coders.decode(data, options: options) }
        } catch {
            throw ProcessingError(loading: .badImageData(error))
        }
        guard page < image.frames.count else { throw .unprocessable("page \(page) could not be decoded") }
        return image.frames[page].pixels
    }

    /// The facts of `pixels` `info` asks for, and the relative crop `options` place.
    private func describePixels(_ pixels: PixelBuffer, info: InfoOptions, options: ProcessingOptions,
                                into description: inout SourceDescription) throws(ProcessingError) {
        if info.alpha {
            let transparent = pixels.hasTransparency
            description.alpha = transparent
            if info.checksTransparency { description.has_transparency = transparent }
        }
        if let crop = options.crop, pixels.width > 0, pixels.height > 0 {
            var cropOnly = ProcessingOptions()
            cropOnly.crop = crop
            var origin: (x: Int, y: Int)?
            if let rect = ProcessingTransformer(options: cropOnly).prepared(pixels, orientation: .up, trims: false, smartOrigin: &origin).cropped {
                let width = Double(pixels.width), height = Double(pixels.height)
                description.crop = .init(left: Double(rect.x) / width, top: Double(rect.y) / height,
                                         width: Double(rect.width) / width, height: Double(rect.height) / height)
            }
        }
        guard pixels.width > 0, pixels.height > 0 else { return }
        let thumbnail = pixels.analysisThumbnail(maxSide: ThumbHash.maximumSide)
        do throws(ImageAnalysisError) {
            if info.blurHashComponents.x > 0 {
                description.blurhash = try BlurHash.encode(thumbnail, xComponents: info.blurHashComponents.x,
                                                           yComponents: info.blurHashComponents.y)
            }
            if info.thumbHash {
                // In uppercase hex, as imgproxy writes it.
                description.thumb_hash = try ThumbHash.encode(thumbnail)
                    .map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }.joined()
            }
            if info.paletteColors > 0 {
                description.palette = try ColorPalette.colors(of: thumbnail, maximum: info.paletteColors).map { SourceDescription.Color($0) }
            }
        } catch {
            throw .unprocessable(error.description)
        }
        if info.perceptualHash { description.perceptual_hash = PerceptualHash.hexString(PerceptualHash.hash(pixels)) }
        if info.average, let average = AverageColor.of(thumbnail, ignoringTransparent: info.averageIgnoresTransparent) {
            description.average = .init(average)
        }
        if info.dominantColors {
            description.dominant_colors = .init(DominantColors(thumbnail, buildMissing: info.buildsMissingColors))
        }
    }

    /// The EXIF, IPTC and XMP fields of `data` `info` asks for; absent when the file has none.
    private func describeMetadata(_ data: Data, info: InfoOptions, into description: inout SourceDescription) {
        if info.exif, let block = EXIFBlock.find(in: data) {
            let fields = EXIFField.fields(fromTIFF: block)
            if !fields.isEmpty {
                description.exif = Dictionary(fields.map { (info.exifCanonicalNames ? $0.name : $0.title, $0.value) },
                                              uniquingKeysWith: { first, _ in first })
            }
        }
        if info.iptc, let records = IPTCRecords.find(in: data) {
            if !records.fields.isEmpty {
                description.iptc = Dictionary(uniqueKeysWithValues: records.fields.map { title, values in
                    (title, IPTCRecords.listTitles.contains(title) ? .list(values) : .text(values.first ?? ""))
                })
            }
            if !records.resolutions.isEmpty {
                let fields = records.resolutions.mapValues { SourceDescription.Value.number($0) }
                    .merging(records.resolutionUnits.mapValues { .text($0) }) { first, _ in first }
                description.photoshop = ["resolution": fields]
            }
        }
        if info.xmp, let packet = XMPPacket.find(in: data) {
            description.xmp = packet.properties.mapValues { namespace in
                namespace.mapValues { value in
                    switch value {
                    case .text(let text): .text(text)
                    case .list(let items): .list(items)
                    }
                }
            }
        }
    }
}

extension SourceDescription {
    /// Fills the layout fields `info` asks for from `layout`.
    mutating func setLayout(_ layout: SourceLayout, info: InfoOptions) {
        if info.colorspace { colorspace = layout.colorspace }
        if info.bands { bands = layout.bands }
        if info.sampleFormat { sample_format = layout.sampleFormat }
    }
}
