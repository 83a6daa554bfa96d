/// What the SVG writer keeps, by name: the elements and attributes of SVG 1.1 and 2 that draw,
/// nothing else. Everything not named here is dropped, an element with all it holds, so that a
/// construct no list foresaw (`foreignObject`, XHTML, a vendor's namespace) cannot slip through.
///
/// Names are compared as written, since XML's names are case-sensitive. An element may be
/// written without a prefix or with `svg:`; an attribute without one, or as `xlink:href`,
/// `xml:space` or `xml:lang`. Namespace declarations are kept only for SVG's and XLink's own
/// namespaces (``namespace(declaredBy:)``), so a prefix bound elsewhere is left unbound and
/// the document fails to parse rather than draws something else.
enum SVGAllowList {
    /// The SMIL elements: kept only when they animate an attribute they may (``animates(_:)``).
    static let animations: Set<[UInt8]> = names("animate animateMotion animateTransform set")

    /// Whether an element named `name` (qualified, as written) is kept.
    static func keeps(element name: ArraySlice<UInt8>) -> Bool {
        guard let colon = name.firstIndex(of: UInt8(ascii: ":")) else { return elements.contains(Array(name)) }
        return name[..<colon].elementsEqual("svg".utf8) && elements.contains(Array(name[(colon + 1)...]))
    }

    /// Whether an attribute named `name` (qualified, as written) may be kept; its value is
    /// still checked by the writer.
    static func keeps(attribute name: ArraySlice<UInt8>) -> Bool {
        attributes.contains(Array(name))
    }

    /// The one namespace a declaration attribute (`xmlns`, `xmlns:svg`, `xmlns:xlink`) may
    /// name, nil for any other attribute.
    static func namespace(declaredBy name: ArraySlice<UInt8>) -> [UInt8]? {
        switch Array(name) {
        case Array("xmlns".utf8), Array("xmlns:svg".utf8): Array("http://www.w3.org/2000/svg".utf8)
        case Array("xmlns:xlink".utf8): Array("http://www.w3.org/1999/xlink".utf8)
        default: nil
        }
    }

    /// Whether a SMIL element may animate the attribute its `attributeName` names: only an
    /// attribute the writer keeps (so never an event handler, `target`, `xml:base`), and of
    /// those not `href` (it could become a `javascript:` link or another document), `style`,
    /// `class` or `id` (outside the writer's reach once animated). An allow-list, so that an
    /// attribute a browser makes animatable later is not animated by default.
    static func animates(_ attributeName: [UInt8]) -> Bool {
        let name = attributeName.drop(while: SVGByteScanner.isWhitespace).reversed().drop(while: SVGByteScanner.isWhitespace)
        let trimmed = Array(name.reversed())
        return attributes.contains(trimmed) && !unanimated.contains(trimmed)
    }

    /// Kept attributes no SMIL element may animate.
    private static let unanimated: Set<[UInt8]> = names("href xlink:href style class id xmlns xmlns:xlink xmlns:svg")

    /// Whether `value` (an `href`) names a fragment of this document as written: `#` and a name
    /// of ASCII letters, digits, `-`, `_`, `.` and `:`, nothing else.
    static func isFragment(_ value: [UInt8]) -> Bool {
        value.count > 1 && value.first == UInt8(ascii: "#") && value.dropFirst().allSatisfy(isNameByte)
    }

    /// A byte a fragment's name may have: an ASCII letter or digit, `-`, `_`, `.`, `:`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    /// Whether `value` (an `href` of `<image>` for a browser to draw) is a raster `data:` URL
    /// of PNG, JPEG, GIF or WebP: one a browser decodes as a picture, never as a document. The
    /// value is read as a URL parser reads it: tabs and line ends dropped anywhere, spaces and
    /// control characters only at its ends (`d ata:` is no scheme, but a relative URL).
    static func isRasterDataURL(_ value: [UInt8]) -> Bool {
        let kept = value.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        let trimmed = kept.drop { $0 <= 0x20 }.reversed().drop { $0 <= 0x20 }.reversed()
        let compact = trimmed.map(SVGByteScanner.lowercased)
        let prefix = Array("data:".utf8)
        guard compact.starts(with: prefix) else { return false }
        let rest = compact.dropFirst(prefix.count)
        guard let end = rest.firstIndex(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") }) else { return false }
        return rasterTypes.contains(Array(rest[..<end]))
    }

    private static let rasterTypes: Set<[UInt8]> = names("image/png image/jpeg image/gif image/webp")

    /// Structure, shapes, text, paint servers, clipping, masking, markers, filters, style and
    /// animation. Not here: `script`, `foreignObject`, `iframe` and any HTML, `metadata`,
    /// SVG fonts, `cursor`, `color-profile`, `tref`, `discard`.
    private static let elements: Set<[UInt8]> = names("""
        svg g defs symbol use switch a view title desc style \
        path rect circle ellipse line polyline polygon image \
        text tspan textPath \
        linearGradient radialGradient stop pattern clipPath mask marker \
        filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting \
        feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur \
        feImage feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting feSpotLight feTile \
        feTurbulence mpath
        """).union(animations)

    /// Core attributes, geometry, presentation attributes (as attributes; the same properties
    /// in `style` are CSS, which the writer neutralises), those of paint servers, markers,
    /// text, filter primitives and SMIL timing. Not here: any `on…`, `xml:base`, `target`,
    /// `externalResourcesRequired`, `requiredExtensions`, and every prefixed name but
    /// `xlink:href`, `xml:space`, `xml:lang` and the namespace declarations.
    private static let attributes: Set<[UInt8]> = names("""
        id class style lang tabindex xml:space xml:lang xmlns xmlns:xlink xmlns:svg href xlink:href \
        version baseProfile x y width height viewBox preserveAspectRatio transform zoomAndPan \
        cx cy r rx ry x1 y1 x2 y2 d points pathLength \
        requiredFeatures systemLanguage \
        alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation \
        color-interpolation-filters color-rendering cursor direction display dominant-baseline \
        enable-background fill fill-opacity fill-rule filter flood-color flood-opacity font font-family \
        font-size font-size-adjust font-stretch font-style font-variant font-weight \
        glyph-orientation-horizontal glyph-orientation-vertical image-rendering isolation kerning \
        letter-spacing lighting-color marker marker-end marker-mid marker-start mask mask-type \
        mix-blend-mode opacity overflow paint-order pointer-events shape-rendering stop-color \
        stop-opacity stroke stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin \
        stroke-miterlimit stroke-opacity stroke-width text-anchor text-decoration text-rendering \
        transform-origin unicode-bidi vector-effect visibility white-space word-spacing writing-mode \
        gradientUnits gradientTransform spreadMethod fx fy fr offset \
        patternUnits patternContentUnits patternTransform clipPathUnits maskUnits maskContentUnits \
        markerWidth markerHeight markerUnits refX refY orient \
        dx dy rotate textLength lengthAdjust startOffset method spacing side path \
        filterUnits primitiveUnits filterRes in in2 result stdDeviation mode operator k1 k2 k3 k4 \
        values type tableValues slope intercept amplitude exponent kernelMatrix order divisor bias \
        targetX targetY edgeMode kernelUnitLength preserveAlpha surfaceScale diffuseConstant \
        specularConstant specularExponent scale xChannelSelector yChannelSelector radius \
        baseFrequency numOctaves seed stitchTiles azimuth elevation pointsAtX pointsAtY pointsAtZ \
        limitingConeAngle z media \
        attributeName attributeType begin dur end min max restart repeatCount repeatDur calcMode \
        keyTimes keySplines keyPoints from to by additive accumulate origin
        """)

    /// The space-separated words of `list`, as bytes.
    private static func names(_ list: String) -> Set<[UInt8]> {
        Set(list.split(whereSeparator: \.isWhitespace).map { Array($0.utf8) })
    }
}
