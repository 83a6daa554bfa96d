/// A width × height grid of RGBA8 pixels, row-major, 4 bytes a pixel, no row padding.
///
/// Colour is **not premultiplied** by alpha: that is what decoders hand out, what encoders
/// take, and what Pillow's references hold, so pixels compare without a conversion. Code that
/// filters pixels (resampling, blur) premultiplies internally so transparent edges do not darken.
public struct PixelBuffer: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, rows top to bottom.
    public var bytes: [UInt8]

    /// Bytes in one row.
    public var bytesPerRow: Int { width * 4 }

    /// A buffer over existing bytes; `bytes.count` must be `width * height * 4`.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0 && bytes.count == width * height * 4,
                     "PixelBuffer needs width * height * 4 bytes")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// A buffer filled with one colour (transparent black by default).
    public init(width: Int, height: Int, fill: RGBA = .clear) {
        self.width = width
        self.height = height
        if fill == .clear {
            self.bytes = [UInt8](repeating: 0, count: width * height * 4)
        } else {
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = fill.r; bytes[i + 1] = fill.g; bytes[i + 2] = fill.b; bytes[i + 3] = fill.a
            }
            self.bytes = bytes
        }
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = (y * width + x) * 4
            return RGBA(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            bytes[i] = newValue.r; bytes[i + 1] = newValue.g; bytes[i + 2] = newValue.b; bytes[i + 3] = newValue.a
        }
    }

    /// Whether any pixel is less than fully opaque.
    public var hasTransparency: Bool {
        bytes.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }
}

/// One non-premultiplied RGBA8 colour.
public struct RGBA: Sendable, Hashable {
    /// Red, green, blue and alpha, 0…255, colour not premultiplied by alpha.
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    /// A colour from its four channels.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Fully transparent black.
    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
    /// Opaque white: the background a format without alpha gets by default.
    public static let white = RGBA(r: 255, g: 255, b: 255)
}
