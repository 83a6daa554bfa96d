/// Applies transformers one after another (SDWebImage's `SDImagePipelineTransformer`).
///
/// Its key joins theirs with `-`, in order. If any step does not apply (returns nil), the
/// pipeline does not apply either: its key would otherwise name a transformation that did not happen.
public struct PipelineTransformer: ImageTransformer {
    /// The steps, first applied first.
    public let transformers: [any ImageTransformer]

    /// A pipeline of `transformers`, applied in order.
    public init(_ transformers: [any ImageTransformer]) {
        self.transformers = transformers
    }

    /// The steps' keys joined with `-`.
    public var key: String { transformers.map(\.key).joined(separator: "-") }

    /// The image after every step; nil when there are no steps or one of them does not apply.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard !transformers.isEmpty else { return nil }
        var current = image
        for transformer in transformers {
            guard let next = transformer.transform(current, forKey: key) else { return nil }
            current = next
        }
        return current
    }
}

extension ImageTransformer where Self == PipelineTransformer {
    /// Applies `transformers` in order: `.pipeline([.resize(width: 200), .grayscale])`.
    public static func pipeline(_ transformers: [any ImageTransformer]) -> PipelineTransformer {
        PipelineTransformer(transformers)
    }
}
