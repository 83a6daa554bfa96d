#if arch(x86_64)
@testable import WebImage
import XCTest

/// `FilterTable`'s fixed-point weights, which the opaque rows' filter multiplies by.
final class FilterTableFixedPointTests: XCTestCase {
    /// Shrinking and enlarging Lanczos tables and a wide Gaussian: every position's weights add
    /// up to exactly one, each within one unit of its Float weight.
    func testEveryPositionAddsUpToOneAndStaysWithinAUnit() throws {
        let tables = [
            FilterTable.lanczos(from: 2040, to: 512), FilterTable.lanczos(from: 4000, to: 97),
            FilterTable.lanczos(from: 13, to: 29), FilterTable.gaussian(sigma: 40, size: 300),
        ]
        for table in tables {
            let pairs = try XCTUnwrap(table.fixedPointPairs())
            for i in 0..<table.outputSize {
                var sum = 0
                for k in 0..<table.counts[i] {
                    let fixed = Int(pairs[(i * table.fixedPointPairStride + k / 2) * 8 + k % 2])
                    XCTAssertLessThanOrEqual(abs(Float(fixed) - table.weights[i * table.stride + k] * 16_384), 1)
                    sum += fixed
                }
                XCTAssertEqual(sum, 16_384, "position \(i) of \(table.inputSize) → \(table.outputSize)")
            }
        }
    }

    /// Weights the row filter cannot take give nil (the Float filter then runs), never a trap.
    func testWeightsOutOfRangeAreRefused() {
        XCTAssertNil(FilterTable.fixedPoint([.nan, 1], one: 16_384))
        XCTAssertNil(FilterTable.fixedPoint([.infinity], one: 16_384))
        XCTAssertNil(FilterTable.fixedPoint([2.5, -1.5], one: 16_384), "a weight past 16 bits")
        // 600 weights near 1.9 each fit 16 bits, but 255 times their sum does not fit 32 bits.
        XCTAssertNil(FilterTable.fixedPoint([Float](repeating: 1.9, count: 600), one: 16_384))
        XCTAssertEqual(FilterTable.fixedPoint([0.25, 0.5, 0.25], one: 16_384), [4_096, 8_192, 4_096])
    }
}
#endif
