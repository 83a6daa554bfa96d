import Foundation

extension ImageCoders {
    /// The bytes a cache tier that keeps encoded images (the disk, a shared tier) stores for
    /// `image`: the serializer's choice; else `data`, the original bytes; else an encoding in the
    /// source format when an encoder exists, and otherwise a format that keeps what the image
    /// has, as SDWebImage's serialiser chooses: GIF for an animation, PNG for transparency, JPEG
    /// otherwise. Nil when there is nothing to store (no bytes and no image, or the serializer says so).
    public func cacheBytes(for image: Image?, data: Data?, key: String, serializer: ImageCacheSerializer?) throws -> Data? {
        if let serializer, let image { return serializer(image, data, key) }
        if let data { return data }
        guard let image else { return nil }
        return try encode(image, as: cacheFormat(for: image))
    }

    /// The format a cache writes `image` in when it has no bytes of it: the source format when
    /// an encoder exists, else GIF for an animation, PNG for transparency, JPEG otherwise.
    public func cacheFormat(for image: Image) -> ImageFormat {
        if image.format != .undefined, canEncode(image.format) { return image.format }
        if image.isAnimated, canEncode(.gif) { return .gif }
        return image.frames.contains { $0.pixels.hasTransparency } ? .png : .jpeg
    }
}
