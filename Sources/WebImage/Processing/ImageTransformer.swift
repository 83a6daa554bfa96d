/// Changes a decoded image after loading and before caching (SDWebImage's `SDImageTransformer`):
/// resize, crop, round corners and the like.
///
/// The manager caches the transformed image under the original key with `-<key>` inserted
/// before the extension, so each transformation has its own cache entry.
///
/// The built-in transformers read as static members: `.resize(width: 200)`,
/// `.pipeline([.crop(rect), .roundCorner(radius: 8)])`. Given an animated image, they
/// transform every frame and keep the durations; the manager hands them animated images only
/// with ``WebImageOptions/transformAnimatedImage``.
public protocol ImageTransformer: Sendable {
    /// A stable name for this transformation and its parameters, used in cache keys.
    var key: String { get }
    /// The transformed image, or nil when the transformation does not apply (the original is used).
    func transform(_ image: Image, forKey key: String) -> Image?
}
