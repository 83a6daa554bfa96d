import Foundation

/// The kernel a resize filters with (imgproxy's `resizing_algorithm`, libvips's `kernel`).
/// Shrinking widens every kernel but ``nearest`` by the reduction factor, so that every source
/// pixel contributes (area-aware, as Pillow and libvips reduce).
public enum ResamplingFilter: String, Sendable, Hashable, CaseIterable {
    /// The nearest source pixel: no new colours, hard edges.
    case nearest
    /// A triangle over one pixel each side (bilinear).
    case linear
    /// Catmull-Rom's cubic (B = 0, C = ½) over two pixels each side.
    case cubic
    /// Lanczos windowed sinc over two pixels each side.
    case lanczos2
    /// Lanczos windowed sinc over three pixels each side: the default, sharpest without aliasing.
    case lanczos3

    /// How far the kernel reaches each side, in pixels at scale 1.
    var support: Double {
        switch self {
        case .nearest: 0.5
        case .linear: 1
        case .cubic, .lanczos2: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's weight at `x` pixels from the centre.
    func weight(_ x: Double) -> Double {
        let distance = abs(x)
        switch self {
        case .nearest:
            // Half-open, so a sample exactly between two pixels takes one of them only.
            return x >= -0.5 && x < 0.5 ? 1 : 0
        case .linear:
            return max(0, 1 - distance)
        case .cubic:
            if distance < 1 { return 1.5 * distance * distance * distance - 2.5 * distance * distance + 1 }
            if distance < 2 { return -0.5 * distance * distance * distance + 2.5 * distance * distance - 4 * distance + 2 }
            return 0
        case .lanczos2:
            return Self.lanczos(x, lobes: 2)
        case .lanczos3:
            return Self.lanczos(x, lobes: 3)
        }
    }

    /// `sinc(x) · sinc(x / lobes)` for |x| < lobes, else 0.
    static func lanczos(_ x: Double, lobes: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= lobes { return 0 }
        let px = Double.pi * x
        return lobes * sin(px) * sin(px / lobes) / (px * px)
    }
}
