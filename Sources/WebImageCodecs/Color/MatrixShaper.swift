import CLCMS2
import WebImage

/// A fast path for the common case, an RGB matrix/TRC profile (Display P3, Adobe RGB, ProPhoto
/// and most camera and phone profiles) to sRGB on 8-bit pixels, in fixed point.
///
/// lcms2 evaluates such a transform pixel by pixel through format handlers and 16-bit
/// arithmetic (about four times slower); here each input channel's curve and matrix column
/// are folded into one table of 256 vectors, so a pixel costs three table reads, three vector
/// additions, a shift, a clamp and three reads of sRGB's encoding curve. Both tables (12 KiB
/// and 16 KiB) stay in a core's L1 cache. Built from the profiles' own tags, it is
/// used only when it agrees with lcms2's transform to within one level on a grid of colours
/// (``agrees(with:)``).
final class MatrixShaper: @unchecked Sendable {
    /// Linear light 1.0 in the tables' fixed point.
    private static let one: Int32 = 1 << 16
    /// Entries of the output curve: 14 bits of linear light.
    private static let outputSize = (1 << 14) + 1

    /// For each input channel c, 256 vectors: column c of the matrix times channel c's curve.
    private let columns: UnsafeMutablePointer<SIMD4<Int32>>
    /// sRGB's encoding of linear light 0...1 in 1/16384 steps, as 8-bit values; a pixel's sums
    /// are clamped into its range (out-of-gamut colours clip, as lcms2's do).
    private let encode: UnsafeMutablePointer<UInt8>

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
        for channel in 0..<3 {
            for value in 0..<256 {
                let curve = Double(cmsEvalToneCurveFloat(sourceCurves[channel], Float(value) / 255))
                let linear = curve.isFinite ? min(max(curve, 0), 1) : 0
                let column = (0..<3).map { Int32((matrix[$0][channel] * linear * Double(Self.one)).rounded()) }
                let entry = SIMD4(column[0], column[1], column[2], 0)
                entries.append(entry)
            }
        }
        columns = .allocate(capacity: entries.count)
        columns.initialize(from: entries, count: entries.count)
        encode = .allocate(capacity: Self.outputSize)
        let top = Float(Self.outputSize - 1)
        for index in 0..<Self.outputSize {
            encode[index] = UInt8((min(max(Double(cmsEvalToneCurveFloat(output, Float(index) / top)), 0), 1) * 255).rounded())
        }
    }

    deinit {
        columns.deallocate()
        encode.deallocate()
    }

    /// Converts the RGB of every RGBA pixel in `bytes` in place; alpha is left alone.
    ///
    /// A pixel is read and written as one 32-bit word (little-endian: red in the low byte),
    /// so that it costs two accesses to the image besides the six table reads.
    func apply(to bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let red = columns, green = columns + 256, blue = columns + 512
        let encode = self.encode
        let half = SIMD4<Int32>(repeating: 2)
        let zero = SIMD4<Int32>(repeating: 0), top = SIMD4<Int32>(repeating: Int32(Self.outputSize - 1))
        for offset in stride(from: 0, to: bytes.count / 4 * 4, by: 4) {
            let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            // Round to 1/16384 steps, then clip to 0...1.
            var sum = red[Int(word & 0xFF)] &+ green[Int(word >> 8 & 0xFF)] &+ blue[Int(word >> 16 & 0xFF)]
            sum = pointwiseMin(pointwiseMax((sum &+ half) &>> 2, zero), top)
            let converted = UInt32(encode[Int(sum[0])]) | UInt32(encode[Int(sum[1])]) << 8
                | UInt32(encode[Int(sum[2])]) << 16 | word & 0xFF00_0000
            base.storeBytes(of: converted.littleEndian, toByteOffset: offset, as: UInt32.self)
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
