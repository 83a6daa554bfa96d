/// A transformer made of a key and a function, for one-off transformations that need no type
/// of their own.
///
/// The key must name what the function does, parameters included: two closure transformers
/// with one key share cache entries.
public struct ClosureTransformer: ImageTransformer {
    /// The cache-key part naming this transformation.
    public let key: String
    private let body: @Sendable (Image) -> Image?

    /// A transformer that calls `transform`, known in caches as `key`.
    public init(key: String, transform: @escaping @Sendable (Image) -> Image?) {
        self.key = key
        self.body = transform
    }

    /// What the function returns for `image`.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        body(image)
    }
}

extension ImageTransformer where Self == ClosureTransformer {
    /// A transformer that calls `transform`, known in caches as `key`.
    public static func custom(key: String, _ transform: @escaping @Sendable (Image) -> Image?) -> ClosureTransformer {
        ClosureTransformer(key: key, transform: transform)
    }
}
