import Foundation

/// One `watermark(url,x,y,alpha[,w_ratio,h_ratio])` filter of a thumbor URL: the mark at `url`
/// (loaded as a source is, through the same allowed sources, address policy and limits) laid
/// over the resized image.
public struct ThumborWatermark: Sendable, Hashable {
    /// Where the mark comes from.
    public var url: URL
    /// Where it goes along the width.
    public var x: ThumborWatermarkPosition
    /// Where it goes along the height.
    public var y: ThumborWatermarkPosition
    /// How transparent it is, 0 (as it is) to 100 (invisible): thumbor subtracts this share of
    /// 255 from every alpha of the mark.
    public var transparency: Int
    /// The widest the mark may be, as a fraction of the image's width, or nil for no bound.
    public var widthRatio: Double?
    /// The tallest the mark may be, as a fraction of the image's height, or nil for no bound.
    public var heightRatio: Double?

    /// A watermark from `url` at `x`, `y`, `transparency` percent transparent, fitted within
    /// the ratios of the image when they are given.
    public init(url: URL, x: ThumborWatermarkPosition, y: ThumborWatermarkPosition, transparency: Int,
                widthRatio: Double? = nil, heightRatio: Double? = nil) {
        self.url = url
        self.x = x
        self.y = y
        self.transparency = transparency
        self.widthRatio = widthRatio
        self.heightRatio = heightRatio
    }

    /// `twm:x:y:alpha:w:h:<length>:<url>` in the canonical cache key (the length keeps a URL
    /// from reading as the next option).
    var canonical: String {
        let ratios = [widthRatio, heightRatio].map { $0.map(CanonicalNumber.spell) ?? "none" }
        let address = url.absoluteString
        return "twm:\(x.canonical):\(y.canonical):\(transparency):\(ratios[0]):\(ratios[1]):\(address.utf8.count):\(address)"
    }
}
