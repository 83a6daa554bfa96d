import WebImage

/// Thumbnails laid out in a grid on a light background, each centred in its cell and
/// composited over the background by its alpha: one picture that shows a whole gallery.
struct ContactSheet {
    let columns: Int
    let cell: Int
    let gap: Int
    let background = RGBA(r: 238, g: 238, b: 242)

    /// The sheet of `thumbnails`, row by row.
    func render(_ thumbnails: [Image]) -> PixelBuffer {
        let rows = max(1, (thumbnails.count + columns - 1) / columns)
        let width = columns * (cell + gap) + gap, height = rows * (cell + gap) + gap
        var sheet = PixelBuffer(width: width, height: height, fill: background)
        for (index, thumbnail) in thumbnails.enumerated() {
            let pixels = thumbnail.pixels
            let left = gap + (index % columns) * (cell + gap) + (cell - min(cell, pixels.width)) / 2
            let top = gap + (index / columns) * (cell + gap) + (cell - min(cell, pixels.height)) / 2
            for y in 0..<min(cell, pixels.height) {
                for x in 0..<min(cell, pixels.width) {
                    sheet[left + x, top + y] = Self.over(pixels[x, y], background)
                }
            }
        }
        return sheet
    }

    /// `top` composited over the opaque `bottom`.
    static func over(_ top: RGBA, _ bottom: RGBA) -> RGBA {
        let a = Int(top.a)
        func mix(_ t: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(t) * a + Int(b) * (255 - a) + 127) / 255) }
        return RGBA(r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b))
    }
}
