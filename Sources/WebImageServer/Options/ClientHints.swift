import Foundation

/// What a browser's client hints say of the image it will show (imgproxy's
/// `IMGPROXY_ENABLE_CLIENT_HINTS`): its device pixel ratio (`Sec-CH-DPR`, `DPR`) and the width
/// it will be laid out at, in physical pixels (`Sec-CH-Width`, `Width`). An imgproxy URL starts
/// from them, and its own `dpr` and `width` win.
public struct ClientHints: Sendable, Hashable {
    /// The device pixel ratio, or nil when not sent.
    public var dpr: Double?
    /// The layout width in physical pixels, or nil when not sent.
    public var width: Int?

    /// Hints of `dpr` and `width`.
    public init(dpr: Double? = nil, width: Int? = nil) {
        self.dpr = dpr
        self.width = width
    }

    /// The hints in `dprText` and `widthText` (the fields' values), each kept only when it is
    /// a number within `limits` (a ratio up to ``ProcessingURLLimits/maxDPR``, a width up to
    /// ``ProcessingURLLimits/maxDimension``); nil when neither is.
    public init?(dpr dprText: String?, width widthText: String?, limits: ProcessingURLLimits) {
        let dpr = dprText.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 && $0 <= limits.maxDPR ? $0 : nil }
        let width = widthText.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 && $0 <= limits.maxDimension ? $0 : nil }
        guard dpr != nil || width != nil else { return nil }
        self.init(dpr: dpr, width: width)
    }

    /// `options` with the hints laid over them: the ratio as `dpr`, the width divided by it
    /// (rounded) as `width`, since `dpr` multiplies the width again.
    func applied(to options: ProcessingOptions) -> ProcessingOptions {
        var hinted = options
        if let dpr { hinted.dpr = dpr }
        if let width { hinted.width = Int((Double(width) / hinted.dpr).rounded()) }
        return hinted
    }
}
