import Foundation
import WebImage

/// The pictures `webimage demo` serves: drawn here, so the demo needs no network and no files,
/// and encoded in each format WebImage decodes — JPEG, PNG with transparency, lossy WebP and an
/// animated GIF — the way a real gallery mixes them.
struct DemoGallery {
    /// One picture as the server holds it.
    struct Item {
        let path: String
        let data: Data
        let contentType: String
    }

    let items: [Item]

    /// `count` pictures of `width` × `height` pixels (the animations are smaller).
    init(count: Int, width: Int = 640, height: Int = 426, coders: ImageCoders = .shared) throws {
        items = try (0..<count).map { index in
            let hue = Double(index) / Double(max(count, 1))
            switch index % 4 {
            case 0:
                let image = Image(pixels: Self.landscape(width: width, height: height, hue: hue))
                return Item(path: "/gallery/\(index).jpg", data: try coders.encode(image, as: .jpeg), contentType: "image/jpeg")
            case 1:
                let image = Image(pixels: Self.rings(width: width, height: height, hue: hue))
                return Item(path: "/gallery/\(index).png", data: try coders.encode(image, as: .png), contentType: "image/png")
            case 2:
                let image = Image(pixels: Self.landscape(width: width, height: height, hue: 1 - hue))
                return Item(path: "/gallery/\(index).webp", data: try coders.encode(image, as: .webp), contentType: "image/webp")
            default:
                let image = Self.orbit(side: height / 2, hue: hue, frames: 8)
                return Item(path: "/gallery/\(index).gif", data: try coders.encode(image, as: .gif), contentType: "image/gif")
            }
        }
    }

    /// A sky-to-ground gradient with a sun: smooth tones, what JPEG is for.
    static func landscape(width: Int, height: Int, hue: Double) -> PixelBuffer {
        let sunX = Double(width) * (0.2 + 0.6 * hue), sunY = Double(height) * 0.35, sunR = Double(height) * 0.12
        return draw(width: width, height: height) { x, y in
            let v = Double(y) / Double(height)
            let horizon = 0.62 + 0.05 * sin(Double(x) / Double(width) * 9 + hue * 6)
            if v > horizon { return color(hue: hue + 0.3, saturation: 0.6, value: 0.35 + 0.3 * (1 - v)) }
            let d = hypot(Double(x) - sunX, Double(y) - sunY)
            if d < sunR { return color(hue: 0.12, saturation: 0.7, value: 1) }
            return color(hue: hue, saturation: 0.5 + 0.4 * v, value: 1 - 0.4 * v)
        }
    }

    /// Concentric rings fading out to transparent corners: what PNG's alpha is for.
    static func rings(width: Int, height: Int, hue: Double) -> PixelBuffer {
        let cx = Double(width) / 2, cy = Double(height) / 2, radius = Double(min(width, height)) / 2
        return draw(width: width, height: height) { x, y in
            let d = hypot(Double(x) - cx, Double(y) - cy) / radius
            var c = color(hue: hue + 0.25 * floor(d * 6) / 6, saturation: 0.8, value: 0.95)
            c.a = UInt8(max(0, min(255, (1.15 - d) * 255)))
            return c
        }
    }

    /// A dot circling a centre: a looping animation.
    static func orbit(side: Int, hue: Double, frames: Int) -> Image {
        let frames = (0..<frames).map { frame in
            let angle = Double(frame) / Double(frames) * 2 * .pi
            let dx = Double(side) / 2 + cos(angle) * Double(side) * 0.3, dy = Double(side) / 2 + sin(angle) * Double(side) * 0.3
            let pixels = draw(width: side, height: side) { x, y in
                hypot(Double(x) - dx, Double(y) - dy) < Double(side) * 0.12
                    ? color(hue: hue + 0.5, saturation: 0.9, value: 1) : color(hue: hue, saturation: 0.25, value: 0.3)
            }
            return ImageFrame(pixels: pixels, duration: 0.1)
        }
        return Image(frames: frames, loopCount: 0)
    }

    private static func draw(width: Int, height: Int, _ pixel: (Int, Int) -> RGBA) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer[x, y] = pixel(x, y) }
        }
        return buffer
    }

    /// An opaque colour from hue (wrapping), saturation and value in 0…1.
    static func color(hue: Double, saturation: Double, value: Double) -> RGBA {
        let h = (hue - floor(hue)) * 6, i = Int(h) % 6, f = h - floor(h)
        let p = value * (1 - saturation), q = value * (1 - saturation * f), t = value * (1 - saturation * (1 - f))
        let (r, g, b): (Double, Double, Double) = switch i {
        case 0: (value, t, p)
        case 1: (q, value, p)
        case 2: (p, value, t)
        case 3: (p, q, value)
        case 4: (t, p, value)
        default: (value, p, q)
        }
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return RGBA(r: byte(r), g: byte(g), b: byte(b))
    }
}
