/// The bounds an SVG document is held to before librsvg reads it: SVG is text a stranger wrote,
/// and its cost is in its structure, not its byte count alone.
///
/// A document over any of them fails with ``ImageCodingError/unsupportedFeature(_:_:)`` naming
/// the limit, before it is parsed or drawn: deep nesting (a stack-exhaustion attempt), very many
/// elements (each costs a node and drawing time), entity declarations that expand to more than
/// the budget (the "billion laughs" bomb) or that refer to other entities, files or markup.
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

    /// Limits with the given values; every argument has the default described on its property.
    public init(maxBytes: Int = 16 << 20, maxDepth: Int = 256, maxElements: Int = 100_000,
                maxEntities: Int = 64, maxEntityExpansionBytes: Int = 1 << 20) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxEntities = maxEntities
        self.maxEntityExpansionBytes = maxEntityExpansionBytes
    }
}
