import WebImage
import XCTest

/// How far two RGBA images are apart, as the fixtures README measures it.
public struct PixelDifference: CustomStringConvertible {
    /// The largest difference of one channel of one pixel.
    public let maximum: Int
    /// The mean absolute difference over all channels.
    public let mean: Double

    /// Compares `a` with `b` (same size required); RGB is ignored where both alphas are 0.
    public init(_ a: PixelBuffer, _ b: PixelBuffer) {
        precondition(a.width == b.width && a.height == b.height, "compare buffers of one size")
        var maximum = 0
        var total = 0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            let clear = a.bytes[i + 3] == 0 && b.bytes[i + 3] == 0
            for c in 0..<4 where !(clear && c < 3) {
                let d = abs(Int(a.bytes[i + c]) - Int(b.bytes[i + c]))
                maximum = max(maximum, d)
                total += d
            }
        }
        self.maximum = maximum
        self.mean = a.bytes.isEmpty ? 0 : Double(total) / Double(a.bytes.count)
    }

    /// Whether the difference is within `maximum` per channel and `mean` on average.
    public func isWithin(maximum limit: Int, mean meanLimit: Double) -> Bool {
        maximum <= limit && mean <= meanLimit
    }

    public var description: String { "max \(maximum), mean \(mean)" }
}

/// Asserts that `actual` shows the same picture as `expected`: equal size and alpha, equal
/// colour wherever the expected pixel is not fully transparent.
public func assertSamePixels(_ actual: PixelBuffer, _ expected: PixelBuffer, _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
    guard actual.width == expected.width, actual.height == expected.height else {
        return XCTFail("\(message): size \(actual.width)x\(actual.height) != \(expected.width)x\(expected.height)",
                       file: file, line: line)
    }
    var differing = 0
    for i in stride(from: 0, to: actual.bytes.count, by: 4) {
        let alpha = expected.bytes[i + 3]
        let channels = alpha == 0 ? 3..<4 : 0..<4
        if channels.contains(where: { actual.bytes[i + $0] != expected.bytes[i + $0] }) { differing += 1 }
    }
    XCTAssertEqual(differing, 0, "\(message): pixels differ", file: file, line: line)
}

/// Asserts that every channel of `actual` (alpha included) is within `tolerance` of `expected`.
public func assertClose(_ actual: RGBA, _ expected: RGBA, tolerance: Int = 2, _ message: @autoclosure () -> String = "",
                        file: StaticString = #filePath, line: UInt = #line) {
    let pairs = [(actual.r, expected.r), (actual.g, expected.g), (actual.b, expected.b), (actual.a, expected.a)]
    guard pairs.contains(where: { abs(Int($0.0) - Int($0.1)) > tolerance }) else { return }
    let context = message()
    XCTFail("\(context.isEmpty ? "" : context + ": ")\(actual) is not within \(tolerance) of \(expected)",
            file: file, line: line)
}
