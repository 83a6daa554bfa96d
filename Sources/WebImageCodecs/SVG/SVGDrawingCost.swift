import WebImage

/// What drawing a document will cost librsvg, counted while it is scanned, so that a document
/// cheap to read but ruinous to draw is refused before it is drawn.
///
/// `<use>` draws its target again, and targets may use others: 30 groups each using the one
/// before twice draw 2³⁰ copies from 90 elements. Each element with an `id` records how many
/// elements its subtree holds and which `<use>` targets it names; the elements drawn count every
/// use's target, recursively, memoised, up to ``SVGLimits/maxDrawnElements``, through chains of
/// at most ``SVGLimits/maxUseDepth`` uses. Filters cost their primitives on every element they
/// apply to, over the drawing's pixels: ``filterRuns`` (primitives, the `fe…` elements, times
/// filtered elements) is what the coder holds to ``SVGLimits/maxFilterWork`` once it knows the size.
struct SVGDrawingCost {
    private struct Frame {
        var id: Int?
        var elementsAtOpen: Int
        var usesAtOpen: Int
    }

    /// Each `id` and `<use>` target seen, numbered once as it is first read: the counting
    /// compares numbers, so a long id costs its hashing once, not at every visit.
    private var numbers: [[UInt8]: Int] = [:]
    /// The numbered targets of every `<use>`, in document order.
    private var uses: [Int] = []
    /// Per number: the elements the subtree of the element with that `id` holds and the range
    /// of ``uses`` inside it; nil for a target no element defines.
    private var definitions: [(elements: Int, uses: Range<Int>)?] = []
    private var frames: [Frame] = []
    /// The numbers of the ids an element has opened with.
    private var claimedIDs = Set<Int>()
    private var elements = 0
    private var filterPrimitives = 0
    private var filtered = 0
    /// Whether a style sheet mentions `filter`: a selector may then filter any element, with a
    /// `url(#…)` filter or a CSS filter function, whose own cost counts as one primitive.
    private var styleSheetsFilter = false

    /// An element opens (and closes at once when `selfClosing`): its `id`, the target of a
    /// `<use>`, whether it is a filter primitive and whether a filter applies to it.
    mutating func open(id: [UInt8]?, useTarget: [UInt8]?, filterPrimitive: Bool, hasFilter: Bool, selfClosing: Bool) {
        // The first element to open with an id is the one `<use>` draws, as browsers resolve
        // it: a later one (a decoy nested inside it, closing first) defines nothing.
        let claimed = id.map { number(of: $0) }.flatMap { claimedIDs.insert($0).inserted ? $0 : nil }
        frames.append(Frame(id: claimed, elementsAtOpen: elements, usesAtOpen: uses.count))
        elements += 1
        if let useTarget { uses.append(number(of: useTarget)) }
        if filterPrimitive { filterPrimitives += 1 }
        if hasFilter { filtered += 1 }
        if selfClosing { close() }
    }

    /// The innermost open element closes.
    mutating func close() {
        guard let frame = frames.popLast(), let id = frame.id else { return }
        definitions[id] = (elements - frame.elementsAtOpen, frame.usesAtOpen..<uses.count)
    }

    /// The number of `name`, given now when it is new.
    private mutating func number(of name: [UInt8]) -> Int {
        if let known = numbers[name] { return known }
        numbers[name] = definitions.count
        definitions.append(nil)
        return definitions.count - 1
    }

    /// A style sheet mentions `filter`: every element counts as filtered, by at least one primitive.
    mutating func styleSheetFilters() {
        styleSheetsFilter = true
    }

    /// Filter primitives times filtered elements: how many times a primitive may run over the
    /// drawing (saturating).
    var filterRuns: Int {
        let primitives = styleSheetsFilter ? max(filterPrimitives, 1) : filterPrimitives
        let runs = primitives.multipliedReportingOverflow(by: styleSheetsFilter ? elements : filtered)
        return runs.overflow ? Int.max : runs.partialValue
    }

    /// Throws when the whole document breaks ``SVGLimits/maxDrawnElements`` or ``SVGLimits/maxUseDepth``.
    func check(_ limits: SVGLimits) throws(ImageCodingError) {
        var memo = [Int?](repeating: nil, count: definitions.count)
        var total = elements
        for target in uses {
            total += try cost(of: target, depth: 1, limits: limits, memo: &memo)
            if total > limits.maxDrawnElements { throw tooMany(limits) }
        }
    }

    /// The elements drawing the element numbered `id` draws (0 for an id no element defines,
    /// or one being counted: a cycle, which librsvg refuses itself).
    private func cost(of id: Int, depth: Int, limits: SVGLimits, memo: inout [Int?]) throws(ImageCodingError) -> Int {
        if let known = memo[id] { return known }
        guard let definition = definitions[id] else {
            memo[id] = 0
            return 0
        }
        guard depth <= limits.maxUseDepth else {
            throw .unsupportedFeature(.svg, "<use> references nested more than \(limits.maxUseDepth) deep")
        }
        memo[id] = 0
        var total = definition.elements
        for index in definition.uses {
            total += try cost(of: uses[index], depth: depth + 1, limits: limits, memo: &memo)
            if total > limits.maxDrawnElements { throw tooMany(limits) }
        }
        memo[id] = total
        return total
    }

    private func tooMany(_ limits: SVGLimits) -> ImageCodingError {
        .unsupportedFeature(.svg, "more than \(limits.maxDrawnElements) elements drawn through <use>")
    }
}
