import Foundation

/// Resizes pixels with a separable Lanczos-3 filter, widened when shrinking so every source
/// pixel contributes (area-aware, like Pillow's `LANCZOS`).
///
/// Filtering happens on premultiplied colour, so a transparent pixel's colour never bleeds
/// into its opaque neighbours; the result is non-premultiplied again.
public enum Resampler {
    /// `pixels` resized to `size` (each side at least 1).
    public static func resize(_ pixels: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        let outW = max(1, size.width), outH = max(1, size.height)
        if outW == pixels.width && outH == pixels.height { return pixels }
        if pixels.width == 0 || pixels.height == 0 { return PixelBuffer(width: outW, height: outH) }
        let premultiplied = premultiply(pixels)
        // Resize the dimension that shrinks most first: the second pass then has less to do.
        let horizontalFirst = Double(outW) / Double(pixels.width) <= Double(outH) / Double(pixels.height)
        let result: [Float]
        if horizontalFirst {
            let h = pass(premultiplied, width: pixels.width, height: pixels.height, to: outW, horizontal: true)
            result = pass(h, width: outW, height: pixels.height, to: outH, horizontal: false)
        } else {
            let v = pass(premultiplied, width: pixels.width, height: pixels.height, to: outH, horizontal: false)
            result = pass(v, width: pixels.width, height: outH, to: outW, horizontal: true)
        }
        return unpremultiply(result, width: outW, height: outH)
    }

    /// The weights for one output position: first source index and the normalised weights.
    struct Contribution {
        var start: Int
        var weights: [Float]
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    static func contributions(from inSize: Int, to outSize: Int) -> [Contribution] {
        let scale = Double(outSize) / Double(inSize)
        let filterScale = max(1, 1 / scale)
        let support = 3 * filterScale
        return (0..<outSize).map { i in
            let center = (Double(i) + 0.5) / scale
            let start = max(0, Int((center - support).rounded(.down)))
            let end = min(inSize, Int((center + support).rounded(.up)))
            var weights = [Float]()
            weights.reserveCapacity(end - start)
            var total = 0.0
            for j in start..<end {
                let w = lanczos3((Double(j) + 0.5 - center) / filterScale)
                weights.append(Float(w))
                total += w
            }
            if total != 0 { weights = weights.map { $0 / Float(total) } }
            return Contribution(start: start, weights: weights)
        }
    }

    private static func pass(_ src: [Float], width: Int, height: Int, to outSize: Int, horizontal: Bool) -> [Float] {
        let inSize = horizontal ? width : height
        let table = contributions(from: inSize, to: outSize)
        let outW = horizontal ? outSize : width, outH = horizontal ? height : outSize
        var dst = [Float](repeating: 0, count: outW * outH * 4)
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                let sv = UnsafeRawPointer(s.baseAddress!).assumingMemoryBound(to: SIMD4<Float>.self)
                let dv = UnsafeMutableRawPointer(d.baseAddress!).assumingMemoryBound(to: SIMD4<Float>.self)
                if horizontal {
                    for y in 0..<height {
                        let row = sv + y * width
                        let out = dv + y * outW
                        for (x, c) in table.enumerated() {
                            var acc = SIMD4<Float>(repeating: 0)
                            for (k, w) in c.weights.enumerated() { acc += row[c.start + k] * w }
                            out[x] = acc
                        }
                    }
                } else {
                    for (y, c) in table.enumerated() {
                        let out = dv + y * width
                        for (k, w) in c.weights.enumerated() {
                            let row = sv + (c.start + k) * width
                            for x in 0..<width { out[x] += row[x] * w }
                        }
                    }
                }
            }
        }
        return dst
    }

    private static func premultiply(_ p: PixelBuffer) -> [Float] {
        var out = [Float](repeating: 0, count: p.bytes.count)
        p.bytes.withUnsafeBufferPointer { b in
            for i in stride(from: 0, to: b.count, by: 4) {
                let a = Float(b[i + 3])
                let f = a / 255
                out[i] = Float(b[i]) * f
                out[i + 1] = Float(b[i + 1]) * f
                out[i + 2] = Float(b[i + 2]) * f
                out[i + 3] = a
            }
        }
        return out
    }

    private static func unpremultiply(_ v: [Float], width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        func clamp(_ x: Float) -> UInt8 { UInt8(max(0, min(255, x.rounded()))) }
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let a = max(0, min(255, v[i + 3]))
            guard a > 0 else { continue }
            let f = 255 / a
            bytes[i] = clamp(v[i] * f)
            bytes[i + 1] = clamp(v[i + 1] * f)
            bytes[i + 2] = clamp(v[i + 2] * f)
            bytes[i + 3] = clamp(a)
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }
}
