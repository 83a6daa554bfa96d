/// The bounds an SVG document is held to before librsvg reads it: SVG is text a stranger wrote,
/// and its cost is in its structure, not its byte count alone.
///
/// A document over any of them fails with ``ImageCodingError/unsupportedFeature(_:_:)`` naming
/// the limit, before it is parsed or drawn: deep nesting (a stack-exhaustion attempt), very many
/// elements (each costs a node and drawing time), entity declarations that expand to more than
/// the budget (the "billion laughs" bomb) or that refer to other entities, files or markup,
/// and drawing costs (``SVGDrawingCost``): `<use>` chains that multiply the elements drawn,
/// filters on many elements. Drawing time is bounded by these and the pixel limit, not by a
/// clock: librsvg cannot be interrupted once it draws.
public struct SVGLimits: Sendable, Hashable {
    /// The most bytes a document may have (16 MiB by default).
    public var maxBytes: Int
    /// The most elements that may be open inside each other (256 by default).
    public var maxDepth: Int
    /// The most elements a document may hold (100 000 by default).
    public var maxElements: Int
    /// The most entities the document type may declare (64 by default).
    public var maxEntities: Int
    /// The most bytes all entity references together may expand to (1 MiB by default).
    public var maxEntityExpansionBytes: Int
    /// The most elements drawing may visit, each `<use>` counting its target's elements again
    /// (200 000 by default): the exponential `<use>` bomb.
    public var maxDrawnElements: Int
    /// The longest chain of `<use>` referring to elements that hold `<use>` (32 by default).
    public var maxUseDepth: Int
    /// The most filter work: filter primitives times elements with a filter times the pixels
    /// drawn (32 million by default: 32 primitives run over a megapixel). Each primitive may run
    /// on every filtered element, over the drawing's size; at the limit, 32 Gaussian blurs of
    /// 40 pixels over a megapixel took librsvg 6 s here.
    public var maxFilterWork: Int

    /// Limits with the given values; every argument has the default described on its property.
    public init(maxBytes: Int = 16 << 20, maxDepth: Int = 256, maxElements: Int = 100_000,
                maxEntities: Int = 64, maxEntityExpansionBytes: Int = 1 << 20, maxDrawnElements: Int = 200_000,
                maxUseDepth: Int = 32, maxFilterWork: Int = 32_000_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxEntities = maxEntities
        self.maxEntityExpansionBytes = maxEntityExpansionBytes
        self.maxDrawnElements = maxDrawnElements
        self.maxUseDepth = maxUseDepth
        self.maxFilterWork = maxFilterWork
    }
}
