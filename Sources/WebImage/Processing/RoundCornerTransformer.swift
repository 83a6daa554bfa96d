import Foundation

/// Rounds the corners of every frame, optionally drawing a border along the rounded edge
/// (SDWebImage's `SDImageRoundCornerTransformer`).
///
/// Each pixel is covered in proportion to how far its centre lies inside the rounded
/// rectangle (a signed distance, so edges are anti-aliased): outside pixels become
/// transparent, edge pixels partly so. A border covers the band of ``borderWidth`` pixels
/// inside the edge, drawn over the image in ``borderColor``. Sizes are in pixels.
public struct RoundCornerTransformer: ImageTransformer {
    /// The corner radius in pixels (at most half the shorter side takes effect), or the
    /// horizontal one of elliptical corners (at most half the width).
    public let radius: Double
    /// The vertical radius of elliptical corners (at most half the height takes effect), or
    /// nil for circular corners of ``radius``.
    public let verticalRadius: Double?
    /// The corners that are rounded; the others stay square.
    public let corners: RectCorners
    /// The border's width in pixels; 0 for none.
    public let borderWidth: Double
    /// The border's colour.
    public let borderColor: RGBA

    /// Rounds `corners` with `radius` (elliptically, `radius` across and `verticalRadius` down,
    /// when that is given), with a border of `borderWidth` in `borderColor`.
    public init(radius: Double, verticalRadius: Double? = nil, corners: RectCorners = .all, borderWidth: Double = 0,
                borderColor: RGBA = .clear) {
        self.radius = max(0, radius)
        self.verticalRadius = verticalRadius.map { max(0, $0) }
        self.corners = corners
        self.borderWidth = max(0, borderWidth)
        self.borderColor = borderColor
    }

    /// `roundCorner(16,all)`, or `roundCorner(16,topLeft+topRight,border:2,#FF0000FF)` with a border.
    public var key: String {
        var key = "roundCorner(\(TransformerKey.number(radius))"
            + (verticalRadius.map { "|" + TransformerKey.number($0) } ?? "") + ",\(corners)"
        if hasBorder { key += ",border:\(TransformerKey.number(borderWidth)),\(TransformerKey.colour(borderColor))" }
        return key + ")"
    }

    private var hasBorder: Bool { borderWidth > 0 && borderColor.a > 0 }

    /// Every frame with rounded corners (and border); nil for an image without pixels.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(round)
    }

    private func round(_ pixels: PixelBuffer) -> PixelBuffer {
        var out = pixels
        let width = Double(pixels.width), height = Double(pixels.height)
        // Circular corners fit the shorter side; elliptical ones each their own (as thumbor's).
        let radii = verticalRadius.map { (min(radius, width / 2), min($0, height / 2)) }
            ?? (min(radius, min(width, height) / 2), min(radius, min(width, height) / 2))
        let border = hasBorder ? borderWidth : 0
        let borderAlpha = Float(borderColor.a) / 255
        let borderPremultiplied = PremultipliedRGBA.load(borderColor)
        out.bytes.withUnsafeMutableBytes { bytes in
            for y in 0..<pixels.height {
                let py = Double(y) + 0.5
                for x in 0..<pixels.width {
                    let px = Double(x) + 0.5
                    let corner: RectCorners = py < height / 2
                        ? (px < width / 2 ? .topLeft : .topRight) : (px < width / 2 ? .bottomLeft : .bottomRight)
                    let rounded = corners.contains(corner)
                    let d = Self.signedDistance(px, py, width: width, height: height,
                                                radii: rounded ? radii : (0, 0))
                    let outer = Float(min(max(0.5 - d, 0), 1))
                    let inner = Float(min(max(0.5 - (d + border), 0), 1))
                    if outer == 1 && inner == 1 { continue }
                    let i = (y * pixels.width + x) * 4
                    let source = PremultipliedRGBA.load(bytes.baseAddress!, at: i)
                    let band = outer - inner
                    let mixed = borderPremultiplied * band + source * outer * (1 - borderAlpha * band)
                    PremultipliedRGBA.store(mixed, to: bytes.baseAddress!, at: i)
                }
            }
        }
        return out
    }

    /// The distance from (x, y) to the edge of a `width` × `height` rectangle whose corners
    /// are quarter ellipses of `radii` (across, down): negative inside, positive outside. Exact
    /// for circles; for ellipses, the first-order estimate (the implicit function over its
    /// gradient), within a fraction of a pixel near the edge, where the coverage is read.
    private static func signedDistance(_ x: Double, _ y: Double, width: Double, height: Double,
                                       radii: (x: Double, y: Double)) -> Double {
        let qx = abs(x - width / 2) - width / 2 + radii.x
        let qy = abs(y - height / 2) - height / 2 + radii.y
        guard qx > 0, qy > 0, radii.x > 0, radii.y > 0 else { return max(qx - radii.x, qy - radii.y) }
        guard radii.x != radii.y else { return hypot(qx, qy) - radii.x }
        let k = hypot(qx / radii.x, qy / radii.y)
        let gradient = hypot(qx / (radii.x * radii.x), qy / (radii.y * radii.y))
        return (k - 1) * k / gradient
    }
}

extension ImageTransformer where Self == RoundCornerTransformer {
    /// Rounds `corners` with `radius` pixels (across, and `verticalRadius` down for elliptical
    /// corners), with an optional border of `borderWidth` pixels
    /// in `borderColor` along the rounded edge.
    public static func roundCorner(radius: Double, verticalRadius: Double? = nil, corners: RectCorners = .all,
                                   borderWidth: Double = 0, borderColor: RGBA = .clear) -> RoundCornerTransformer {
        RoundCornerTransformer(radius: radius, verticalRadius: verticalRadius, corners: corners, borderWidth: borderWidth,
                               borderColor: borderColor)
    }
}
