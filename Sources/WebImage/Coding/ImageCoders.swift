import Foundation

/// The registry of coders (SDWebImage's `SDImageCodersManager`): decodes with the first coder
/// that accepts the bytes.
///
/// Order: the coder added last is asked first, as in SDWebImage and as in ``ImageLoaders`` and
/// ``ImageCachesManager``, so a coder you add takes over the formats it accepts. Thread-safe.
public final class ImageCoders: ImageCoder {
    private let coders: Registry<any ImageCoder>

    /// A registry holding `coders`, as if added in order: the last one is asked first.
    public init(_ coders: [any ImageCoder] = []) {
        self.coders = Registry(coders)
    }

    /// The registry the manager uses unless its context names another. Empty until codecs
    /// are registered (`WebImageCodecs.registerDefaults()`).
    public static let shared = ImageCoders()

    /// Adds `coder`; it is asked before every coder added earlier.
    public func add(_ coder: any ImageCoder) {
        coders.add(coder)
    }

    /// Removes every coder of type `type`.
    public func remove<C: ImageCoder>(_ type: C.Type) {
        coders.remove(type)
    }

    /// Puts `coder` in place of every coder of its type (a differently configured one, such as
    /// an encoder of another effort); it is asked first.
    public func replace<C: ImageCoder>(with coder: C) {
        coders.remove(C.self)
        coders.add(coder)
    }

    /// The coders in the order they are asked: the most recently added first.
    public var all: [any ImageCoder] {
        coders.all
    }

    public func canDecode(_ data: Data) -> Bool {
        all.contains { $0.canDecode(data) }
    }

    /// Decodes with the first coder that accepts `data`: the one decoding stage every path
    /// takes (loaders, cache tiers, the server). With ``ImageDecodeOptions/maxSourcePixels``,
    /// the header is read first and a source over the limit refused before decoding. With no coder, throws ``ImageCodingError/empty``
    /// or ``ImageCodingError/unsupportedFormat(_:)`` naming the format; an error of a coder's
    /// own kind becomes ``ImageCodingError/corrupt(_:_:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageCodingError) -> Image {
        if data.isEmpty { throw .empty }
        guard let coder = all.first(where: { $0.canDecode(data) }) else {
            throw .unsupportedFormat(ImageFormat(detecting: data))
        }
        // The source's own size, from its header, before any pixel: a thumbnail of a huge or
        // many-framed source would otherwise decode every full-size frame to shrink it. A source
        // whose size cannot be read is refused under such a limit, never decoded unchecked. A
        // vector declares no pixels: its coder draws it within ``ImageDecodeOptions/maxPixels``.
        if options.maxSourcePixels != nil, !ImageFormat(detecting: data).isVector {
            let header: ImageHeader
            do {
                header = try self.header(of: data)
            } catch let error as ImageCodingError {
                throw error
            } catch {
                throw .corrupt(ImageFormat(detecting: data), String(describing: error))
            }
            try options.checkSourceLimit(header)
        }
        do {
            return try coder.decode(data, options: options)
        } catch let error as ImageCodingError {
            throw error
        } catch {
            throw .corrupt(ImageFormat(detecting: data), String(describing: error))
        }
    }

    /// The first coder that accepts `data` and decodes it progressively, if any.
    public func progressiveCoder(for data: Data) -> (any ProgressiveImageCoder)? {
        for coder in all where coder.canDecode(data) {
            return coder as? any ProgressiveImageCoder
        }
        return nil
    }

    /// The first coder that accepts `data` and reads it frame by frame, if any.
    public func animatedCoder(for data: Data) -> (any AnimatedImageCoder)? {
        for coder in all where coder.canDecode(data) {
            return coder as? any AnimatedImageCoder
        }
        return nil
    }

    /// The header of `data` from the first coder that accepts it, without decoding pixels and
    /// whatever its size (no ``ImageDecodeOptions/maxPixels`` limit applies): from an
    /// ``ImageHeaderReading`` coder, else from an ``AnimatedImageCoder``'s frame reader. Throws
    /// ``ImageCodingError/unsupportedFormat(_:)`` when no coder accepts `data` or can read its header.
    public func header(of data: Data) throws -> ImageHeader {
        if data.isEmpty { throw ImageCodingError.empty }
        let format = ImageFormat(detecting: data)
        for coder in all where coder.canDecode(data) {
            if let reader = coder as? any ImageHeaderReading { return try reader.readHeader(data) }
            if let animated = coder as? any AnimatedImageCoder {
                // Kept colours: the reader then reports the profile the file embeds.
                let frames = try animated.makeFrameReader(
                    for: data, options: ImageDecodeOptions(maxPixels: 0, colorManagement: .preserve))
                return ImageHeader(format: format, reader: frames)
            }
            break
        }
        throw ImageCodingError.unsupportedFormat(format)
    }

    public func canEncode(_ format: ImageFormat) -> Bool {
        all.contains { $0.canEncode(format) }
    }

    /// Encodes with the first coder that writes `format`, or throws ``ImageCodingError/noEncoder(_:)``.
    /// The size and background options of ``ImageEncodeOptions`` are applied here, for every coder.
    public func encode(_ image: Image, as format: ImageFormat,
                       options: ImageEncodeOptions = ImageEncodeOptions()) throws -> Data {
        guard let coder = all.first(where: { $0.canEncode(format) }) else {
            throw ImageCodingError.noEncoder(format)
        }
        return try encode(image, with: coder, as: format, options: options)
    }
}
