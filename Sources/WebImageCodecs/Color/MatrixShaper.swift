import CLCMS2
import WebImage

/// A fast path for the common case, an RGB matrix/TRC profile (Display P3, Adobe RGB, ProPhoto
/// and most camera and phone profiles) to sRGB on 8-bit pixels, in fixed point.
///
/// lcms2 evaluates such a transform pixel by pixel through format handlers and 16-bit
/// arithmetic (about four times slower); here each input channel's curve and matrix column
/// are folded into one table of 256 vectors, so a pixel costs three table reads, three vector
/// additions, a shift and three reads of sRGB's encoding curve, which spans every sum the
/// tables can make so that nothing needs clamping. Built from the profiles' own tags, it is
/// used only when it agrees with lcms2's transform to within one level on a grid of colours
/// (``agrees(with:)``).
final class MatrixShaper: @unchecked Sendable {
    /// Linear light 1.0 in the tables' fixed point.
    private static let one: Int32 = 1 << 16
    /// Entries of the output curve: 14 bits of linear light.
    private static let outputSize = (1 << 14) + 1

    /// For each input channel c, 256 vectors: column c of the matrix times channel c's curve.
    private let columns: UnsafeMutablePointer<SIMD4<Int32>>
    /// sRGB's encoding of linear light in 1/16384 steps, as 8-bit values, over every sum the
    /// columns can make (out-of-gamut ones below 0 and above 1 included, clamped), so that a
    /// pixel needs no clamping: entry i is for linear light (i + ``lowest``) / 16384.
    private let encode: UnsafeMutablePointer<UInt8>
    /// The smallest sum of three column entries, in 1/16384 steps.
    private let lowest: Int32

    /// The tables for `source` (an RGB matrix/TRC profile) to `destination` (sRGB); nil when a
    /// tag is missing, or the matrices cannot be inverted or are far from any real primaries.
    init?(source: cmsHPROFILE, destination: cmsHPROFILE) {
        guard cmsIsMatrixShaper(source) != 0, cmsIsMatrixShaper(destination) != 0,
              let sourceMatrix = Self.colorants(source), let destinationMatrix = Self.colorants(destination),
              let inverse = Self.inverse(destinationMatrix),
              let sourceCurves = Self.curves(source), let destinationCurve = Self.curves(destination)?[0],
              let output = cmsReverseToneCurve(destinationCurve)
        else { return nil }
        defer { cmsFreeToneCurve(output) }
        let matrix = Self.product(inverse, sourceMatrix)
        // Real primaries give entries of a few units; anything else (or NaN) is left to lcms2.
        guard matrix.joined().allSatisfy({ abs($0) <= 16 }) else { return nil }
        var entries: [SIMD4<Int32>] = []
        var low = SIMD4<Int32>(repeating: 0), high = SIMD4<Int32>(repeating: 0)
        for channel in 0..<3 {
            var columnLow = SIMD4<Int32>(repeating: .max), columnHigh = SIMD4<Int32>(repeating: .min)
            for value in 0..<256 {
                let curve = Double(cmsEvalToneCurveFloat(sourceCurves[channel], Float(value) / 255))
                let linear = curve.isFinite ? min(max(curve, 0), 1) : 0
                let column = (0..<3).map { Int32((matrix[$0][channel] * linear * Double(Self.one)).rounded()) }
                let entry = SIMD4(column[0], column[1], column[2], 0)
                entries.append(entry)
                columnLow = pointwiseMin(columnLow, entry)
                columnHigh = pointwiseMax(columnHigh, entry)
            }
            low &+= columnLow
            high &+= columnHigh
        }
        // Sums lie between the smallest and largest of each column added up (a few units of
        // linear light at most for real primaries): one entry for each 1/16384 step between.
        lowest = (low.min() &+ 2) &>> 2
        let count = Int((high.max() &+ 2) &>> 2 - lowest) + 1
        guard count <= 16 * (Self.outputSize - 1) else { return nil }
        columns = .allocate(capacity: entries.count)
        columns.initialize(from: entries, count: entries.count)
        encode = .allocate(capacity: count)
        let top = Float(Self.outputSize - 1)
        for index in 0..<count {
            let linear = min(max(Float(Int32(index) + lowest), 0), top) / top
            encode[index] = UInt8((min(max(Double(cmsEvalToneCurveFloat(output, linear)), 0), 1) * 255).rounded())
        }
    }

    deinit {
        columns.deallocate()
        encode.deallocate()
    }

    /// Converts the RGB of every RGBA pixel in `bytes` in place; alpha is left alone.
    func apply(to bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let red = columns, green = columns + 256, blue = columns + 512
        // Round to 1/16384 steps, then index from the lowest sum.
        let encode = self.encode - Int(lowest)
        let half = SIMD4<Int32>(repeating: 2)
        var pixel = base
        let end = base + bytes.count / 4 * 4
        while pixel < end {
            let sum = (red[Int(pixel[0])] &+ green[Int(pixel[1])] &+ blue[Int(pixel[2])] &+ half) &>> 2
            pixel[0] = encode[Int(sum[0])]
            pixel[1] = encode[Int(sum[1])]
            pixel[2] = encode[Int(sum[2])]
            pixel += 4
        }
    }

    /// Whether the shaper gives what lcms2's `transform` (RGBA8 to RGBA8) gives, within one
    /// level, on a 17 × 17 × 17 grid of colours.
    func agrees(with transform: cmsHTRANSFORM) -> Bool {
        var grid = ColorGrid.rgba(levels: 17)
        var fast = grid
        fast.withUnsafeMutableBytes { apply(to: $0) }
        grid.withUnsafeMutableBytes { cmsDoTransform(transform, $0.baseAddress, $0.baseAddress, cmsUInt32Number($0.count / 4)) }
        return zip(fast, grid).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    /// The rXYZ, gXYZ, bXYZ colorants as the columns of a matrix, rows X, Y, Z.
    private static func colorants(_ profile: cmsHPROFILE) -> [[Double]]? {
        let tags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        var xyz: [cmsCIEXYZ] = []
        for tag in tags {
            guard let pointer = cmsReadTag(profile, tag) else { return nil }
            xyz.append(pointer.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        return [xyz.map(\.X), xyz.map(\.Y), xyz.map(\.Z)]
    }

    /// The red, green and blue tone curves, owned by the profile.
    private static func curves(_ profile: cmsHPROFILE) -> [OpaquePointer]? {
        var curves: [OpaquePointer] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let pointer = cmsReadTag(profile, tag) else { return nil }
            curves.append(OpaquePointer(pointer))
        }
        return curves
    }

    private static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { row in (0..<3).map { column in (0..<3).reduce(0) { $0 + a[row][$1] * b[$1][column] } } }
    }

    private static func inverse(_ m: [[Double]]) -> [[Double]]? {
        let cofactor = { (r: Int, c: Int) -> Double in
            let rows = [0, 1, 2].filter { $0 != r }, columns = [0, 1, 2].filter { $0 != c }
            let minor = m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
            return (r + c) % 2 == 0 ? minor : -minor
        }
        let determinant = (0..<3).reduce(0) { $0 + m[0][$1] * cofactor(0, $1) }
        guard abs(determinant) > 1e-9 else { return nil }
        return (0..<3).map { row in (0..<3).map { column in cofactor(column, row) / determinant } }
    }

}
