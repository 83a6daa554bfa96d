import Foundation
import WebImage

/// The images the server lays over or answers instead of sources, loaded once at start: the
/// watermark's pixels and the fallback image's encoded bytes (processed like a source when one
/// cannot be loaded).
public struct AuxiliaryImages: Sendable {
    /// The watermark's pixels (its first frame, upright, its alpha times the configured base
    /// opacity), or nil when none is configured.
    public var watermark: PixelBuffer?
    /// The fallback image's encoded bytes, or nil when none is configured.
    public var fallback: Data?
    /// The watermark's base opacity (`IMGPROXY_WATERMARK_OPACITY`), which a URL's own
    /// watermark image (`watermark_url`) is faded by too.
    public var watermarkOpacity: Double = 1

    /// Images already loaded (none by default).
    public init(watermark: PixelBuffer? = nil, fallback: Data? = nil) {
        self.watermark = watermark
        self.fallback = fallback
    }

    /// The images `configuration` names, loaded through `manager` (a URL goes through its
    /// downloader, and so its address policy) within the source limits: at most
    /// `maxSrcFileSize` bytes and `maxSrcResolution` megapixels, and decodable by `manager`'s
    /// coders (the fallback is decoded once here too, so that a bad one stops the start).
    public static func load(_ configuration: ServerConfiguration, manager: ImageManager) async throws(AuxiliaryImageError)
        -> AuxiliaryImages {
        var images = AuxiliaryImages()
        images.watermarkOpacity = configuration.overlays.watermarkOpacity
        if let source = configuration.overlays.watermark {
            let data = try await bytes(of: source, role: "watermark", configuration: configuration, manager: manager)
            let pixels = try decoded(data, role: "watermark", configuration: configuration, manager: manager).pixels
            images.watermark = faded(pixels, by: configuration.overlays.watermarkOpacity)
        }
        if let source = configuration.overlays.fallbackImage {
            let data = try await bytes(of: source, role: "fallback image", configuration: configuration, manager: manager)
            _ = try decoded(data, role: "fallback image", configuration: configuration, manager: manager)
            images.fallback = data
        }
        return images
    }

    /// The encoded bytes `source` names.
    private static func bytes(of source: AuxiliaryImageSource, role: String, configuration: ServerConfiguration,
                              manager: ImageManager) async throws(AuxiliaryImageError) -> Data {
        let data: Data
        switch source {
        case let .data(given):
            data = given
        case let .path(path):
            let url = URL(fileURLWithPath: path)
            let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            guard size <= configuration.limits.maxSrcFileSize else {
                throw AuxiliaryImageError(role: role, reason: "the file is over \(configuration.limits.maxSrcFileSize) bytes")
            }
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw AuxiliaryImageError(role: role, reason: "the file cannot be read")
            }
        case let .url(text):
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                throw AuxiliaryImageError(role: role, reason: "the URL is not http(s)")
            }
            do throws(WebImageError) {
                data = try await manager.data(for: url, options: [.retryFailed]).data
            } catch {
                throw AuxiliaryImageError(role: role, reason: ProcessingError(loading: error).description)
            }
        }
        guard data.count <= configuration.limits.maxSrcFileSize else {
            throw AuxiliaryImageError(role: role, reason: "it is over \(configuration.limits.maxSrcFileSize) bytes")
        }
        return data
    }

    /// `data` decoded (its first frame) within the source pixel limit.
    private static func decoded(_ data: Data, role: String, configuration: ServerConfiguration,
                                manager: ImageManager) throws(AuxiliaryImageError) -> Image {
        do throws(ImageCodingError) {
            return try firstFrame(of: data, coders: manager.coders, maxPixels: Int(configuration.limits.maxSrcResolution * 1_000_000))
        } catch {
            throw AuxiliaryImageError(role: role, reason: error.description)
        }
    }

    /// The first frame of `data`, upright, decoded by `coders` when the image declares at most
    /// `maxPixels` pixels: how a mark (this one, or a thumbor `watermark` filter's) is read.
    /// `pixels` with their alpha times `opacity` (the watermark's base opacity, 0…1).
    static func faded(_ pixels: PixelBuffer, by opacity: Double) -> PixelBuffer {
        guard opacity < 1 else { return pixels }
        var faded = pixels
        faded.bytes.withUnsafeMutableBufferPointer { bytes in
            for alpha in stride(from: 3, to: bytes.count, by: 4) {
                bytes[alpha] = UInt8((Double(bytes[alpha]) * opacity).rounded())
            }
        }
        return faded
    }

    /// The first frame of `data`, decoded within `maxPixels` (its header's size counting).
    static func firstFrame(of data: Data, coders: ImageCoders, maxPixels: Int) throws(ImageCodingError) -> Image {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        options.maxPixels = maxPixels
        options.maxSourcePixels = maxPixels
        return try coders.decode(data, options: options)
    }
}
