import WebImage

/// Areas of the source blurred in the result (imgproxy's `blur_areas`): each given as fractions
/// of the source's sides, upright (after its EXIF orientation), turned and flipped with the
/// image by `rotate` and `flip`, and cut and scaled with it by the crops and the resize.
public struct BlurAreas: Sendable, Hashable {
    /// One area: its left and top edges and its sides, each 0…1 of the source's.
    public struct Area: Sendable, Hashable {
        /// The left edge, 0…1 of the source's width.
        public var left: Double
        /// The top edge, 0…1 of the source's height.
        public var top: Double
        /// The width, 0…1 of the source's.
        public var width: Double
        /// The height, 0…1 of the source's.
        public var height: Double

        /// An area at `left`, `top` of `width` × `height`, in fractions of the source's sides.
        public init(left: Double, top: Double, width: Double, height: Double) {
            self.left = left
            self.top = top
            self.width = width
            self.height = height
        }

        /// The area once the image is turned clockwise by `rotation` (0, 90, 180 or 270) and
        /// flipped, still in fractions of the turned image's sides.
        func turned(by rotation: Int, flipHorizontal: Bool, flipVertical: Bool) -> Area {
            var area = self
            switch rotation {
            case 90: area = Area(left: 1 - top - height, top: left, width: height, height: width)
            case 180: area = Area(left: 1 - left - width, top: 1 - top - height, width: width, height: height)
            case 270: area = Area(left: top, top: 1 - left - width, width: height, height: width)
            default: break
            }
            if flipHorizontal { area.left = 1 - area.left - area.width }
            if flipVertical { area.top = 1 - area.top - area.height }
            return area
        }
    }

    /// The blur's sigma in the result's pixels.
    public var sigma: Double
    /// The areas.
    public var areas: [Area]

    /// `areas` blurred by `sigma`.
    public init(sigma: Double, areas: [Area]) {
        self.sigma = sigma
        self.areas = areas
    }

    /// The cache key's part.
    var canonical: String {
        "ba:\(CanonicalNumber.spell(sigma)):" + areas.map {
            [$0.left, $0.top, $0.width, $0.height].map(CanonicalNumber.spell).joined(separator: ",")
        }.joined(separator: ";")
    }
}
