import Foundation
@testable import WebImageCodecs
import WebImage
import WebImageTestSupport
import XCTest

/// One lcms2 transform per profile, built on first use, shared by every decode (also
/// concurrent ones), in a cache of bounded size.
final class ColorTransformCacheTests: XCTestCase {
    private func profile(_ name: String) throws -> ColorProfile {
        try ColorProfile(iccData: Fixtures.colorData("profiles/\(name).icc"))
    }

    private func transform(_ entry: ColorTransformCache.Entry) -> ColorTransform? {
        if case .transform(let transform) = entry { return transform }
        return nil
    }

    func testATransformIsBuiltOnceAndReused() throws {
        let cache = ColorTransformCache(capacity: 4)
        let first = try XCTUnwrap(transform(cache.entry(for: profile("wide-gamut-v2"), input: .rgb)))
        // Equal bytes in another Data: the same transform.
        let copy = try ColorProfile(iccData: Data(Array(Fixtures.colorData("profiles/wide-gamut-v2.icc"))))
        XCTAssertTrue(transform(cache.entry(for: copy, input: .rgb)) === first)
        XCTAssertEqual(cache.count, 1)
        // The same profile read as grey pixels is another transform.
        XCTAssertFalse(transform(cache.entry(for: copy, input: .grayInRGBA)) === first)
    }

    func testMatrixProfilesTakeTheFastPathAndOthersLcms() throws {
        let cache = ColorTransformCache(capacity: 8)
        for name in ["wide-gamut-v2", "swapped-red-green-v4"] {
            XCTAssertEqual(transform(cache.entry(for: try profile(name), input: .rgb))?.usesMatrixShaper, true, name)
        }
        XCTAssertEqual(transform(cache.entry(for: try profile("gray-gamma18"), input: .grayInRGBA))?.usesMatrixShaper, false)
        XCTAssertEqual(transform(cache.entry(for: try profile("cmyk-lut"), input: .invertedCMYK))?.usesMatrixShaper, false)
    }

    func testTheCacheKeepsAtMostItsCapacity() throws {
        let cache = ColorTransformCache(capacity: 2)
        let names = ["wide-gamut-v2", "swapped-red-green-v4", "gray-gamma18"]
        for name in names {
            _ = cache.entry(for: try profile(name), input: name.hasPrefix("gray") ? .grayInRGBA : .rgb)
        }
        XCTAssertEqual(cache.count, 2)
    }

    func testAnSRGBProfileIsRecognisedAsNothingToDo() throws {
        let cache = ColorTransformCache(capacity: 2)
        guard case .identity = cache.entry(for: try profile("srgb"), input: .rgb) else {
            return XCTFail("lcms2's own sRGB is an identity")
        }
        XCTAssertNotNil(transform(cache.entry(for: try profile("wide-gamut-v2"), input: .rgb)))
    }

    func testConcurrentDecodesShareTransformsAndAgree() async throws {
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        let names = ["swapped_rgba.png", "wide_gamut.jpg", "cmyk_lut.jpg", "swapped_lossless.webp"]
        var expected: [String: PixelBuffer] = [:]
        for name in names { expected[name] = try coders.decode(Fixtures.colorData(name)).pixels }
        let inputs = try names.map { ($0, try Fixtures.colorData($0)) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<32 {
                let (name, data) = inputs[round % inputs.count]
                let want = expected[name]!
                group.addTask { try coders.decode(data).pixels == want ? 0 : 1 }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(mismatches, 0)
    }
}
