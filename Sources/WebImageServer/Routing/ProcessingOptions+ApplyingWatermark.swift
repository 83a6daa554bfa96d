import Foundation

extension ProcessingOptions {
    /// `opacity[:position[:x[:y[:scale]]]]`, imgproxy's `watermark`: the position is an edge,
    /// a corner, `ce` or `re` (tiled); empty arguments keep the earlier ones; opacity 0 turns
    /// the watermark off. Two more arguments are read and ignored, as imgproxy's open-source
    /// edition ignores the ones its Pro edition takes.
    mutating func applyWatermark(_ arguments: OptionArguments, limits: ProcessingURLLimits) throws(ProcessingURLError) {
        try arguments.expectCount(1, 7)
        var value = watermark ?? ProcessingWatermark(opacity: 1)
        value.opacity = try arguments.decimal(0, in: 0...1)
        if arguments.has(1) {
            let position = arguments.values[1]
            if position == "re" {
                value.tiled = true
            } else {
                guard let kind = GravityKind(rawValue: String(position)), kind != .smart, kind != .focusPoint else {
                    throw arguments.fail("\"\(ProcessingURLError.quoting(position))\" is not a watermark position")
                }
                value.tiled = false
                value.gravity.kind = kind
            }
        }
        let offsets: ClosedRange<Double> = -Double(limits.maxDimension)...Double(limits.maxDimension)
        if arguments.has(2) { value.gravity.x = try arguments.decimal(2, in: offsets) }
        if arguments.has(3) { value.gravity.y = try arguments.decimal(3, in: offsets) }
        if arguments.has(4) {
            value.scale = try arguments.decimal(4, in: 0...limits.maxDPR)
            guard value.scale > 0 else { throw arguments.fail("the scale must be above 0") }
        }
        watermark = value.opacity > 0 ? value : nil
    }

    /// Applies one of imgproxy Pro's watermark options (`watermark_url`, `watermark_size`,
    /// `watermark_rotate`, `watermark_shadow`), `fallback_image_url` or `style`.
    mutating func applyWatermarkStyle(_ name: ProcessingOptionName, _ arguments: OptionArguments,
                                      limits: ProcessingURLLimits) throws(ProcessingURLError) {
        switch name {
        case .watermarkURL:
            try arguments.expectCount(1, 1)
            watermarkURL = try Self.encodedURL(arguments)
        case .fallbackImageURL:
            try arguments.expectCount(1, 1)
            fallbackImageURL = try Self.encodedURL(arguments)
        case .watermarkSize:
            try arguments.expectCount(1, 2)
            let dimension = 0...limits.maxDimension
            watermarkStyle.width = arguments.has(0) ? try arguments.integer(0, in: dimension) : 0
            watermarkStyle.height = arguments.has(1) ? try arguments.integer(1, in: dimension) : 0
        case .watermarkRotate:
            try arguments.expectCount(1, 1)
            watermarkStyle.rotation = try arguments.decimal(0, in: -3600...3600).truncatingRemainder(dividingBy: 360)
        case .watermarkText:
            try arguments.expectCount(1, 1)
            watermarkText = try Self.encodedText(arguments, "text")
            if let markup = watermarkText {
                do throws(WatermarkText.MarkupError) {
                    _ = try WatermarkText(markup: markup)
                } catch {
                    throw arguments.fail(error.description)
                }
            }
        case .style:
            try arguments.expectCount(1, 1)
            svgStyle = try Self.encodedText(arguments, "CSS")
        case .watermarkShadow:
            try arguments.expectCount(1, 1)
            watermarkStyle.shadowSigma = try arguments.decimal(0, in: 0...limits.maxBlurSigma)
        default:
            throw arguments.fail("not a watermark option")
        }
    }

    /// Argument 0 as the UTF-8 text (`what`) its URL-safe base64 encodes; nil when empty.
    private static func encodedText(_ arguments: OptionArguments, _ what: String) throws(ProcessingURLError) -> String? {
        let text = arguments.values[0]
        guard !text.isEmpty else { return nil }
        guard let bytes = URLSafeBase64.decode(text), let decoded = String(validating: bytes, as: UTF8.self) else {
            throw arguments.fail("not the URL-safe base64 of UTF-8 \(what)")
        }
        return decoded
    }

    /// Argument 0 as the URL its URL-safe base64 encodes (empty: none), checked as a source
    /// URL is; the server's source rules apply when it is fetched.
    private static func encodedURL(_ arguments: OptionArguments) throws(ProcessingURLError) -> URL? {
        guard let decoded = try encodedText(arguments, "URL") else { return nil }
        do throws(ProcessingURLError) {
            return try SourceURL.parse(decoded)
        } catch {
            throw arguments.fail("\(error)")
        }
    }
}
