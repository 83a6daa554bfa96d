import CGIF
import WebImage

/// A GIF colour table as opaque RGBA colours.
struct GIFPalette {
    /// The table's colours, at most 256.
    let colors: [RGBA]

    /// A copy of giflib's colour map (which giflib frees or reuses once the next record is read).
    init(_ map: UnsafePointer<ColorMapObject>) {
        let count = min(max(Int(map.pointee.ColorCount), 0), 256)
        guard count > 0, let entries = map.pointee.Colors else {
            colors = []
            return
        }
        colors = (0..<count).map { RGBA(r: entries[$0].Red, g: entries[$0].Green, b: entries[$0].Blue) }
    }

    private init(colors: [RGBA]) {
        self.colors = colors
    }

    /// The table used when a file has neither a global nor a local one: index `i` is grey `i`,
    /// as Pillow reads such a file (a greyscale image).
    static let grayscale = GIFPalette(colors: (0...255).map { RGBA(r: UInt8($0), g: UInt8($0), b: UInt8($0)) })

    /// The colour of `index`; an index past the end of the table is opaque black (as Pillow
    /// and Firefox show it).
    func color(at index: Int) -> RGBA {
        colors.indices.contains(index) ? colors[index] : RGBA(r: 0, g: 0, b: 0)
    }
}
