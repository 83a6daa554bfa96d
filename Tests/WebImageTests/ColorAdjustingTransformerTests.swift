import WebImage
import XCTest

/// ``ColorAdjustingTransformer`` against thumbor's arithmetic (thumbor/ext/filters/_brightness.c,
/// _contrast.c, _rgb.c, _saturation.c, _noise.c, _equalize.c), worked out by hand for one pixel.
final class ColorAdjustingTransformerTests: XCTestCase {
    private let pixel = RGBA(r: 100, g: 200, b: 250, a: 128)

    private func adjusted(_ adjustments: [ColorAdjustment], _ pixels: [RGBA]) throws -> [RGBA] {
        let buffer = PixelBuffer(width: pixels.count, height: 1, bytes: pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] })
        let out = try XCTUnwrap(ColorAdjustingTransformer(adjustments).transform(Image(pixels: buffer), forKey: "")).pixels
        return (0..<pixels.count).map { out[$0, 0] }
    }

    func testBrightnessContrastAndChannelsFollowThumborsIntegerArithmetic() throws {
        // brightness(20): + 255 × 20 / 100 = 51 on each channel, clamped.
        XCTAssertEqual(try adjusted([.brightness(percent: 20)], [pixel]), [RGBA(r: 151, g: 251, b: 255, a: 128)])
        // contrast(20): factor 120² / 100 = 144; 144 × (100 − 128) / 100 + 128 = 88 (truncated towards zero).
        XCTAssertEqual(try adjusted([.contrast(percent: 20)], [pixel]), [RGBA(r: 88, g: 231, b: 255, a: 128)])
        // rgb(10,2,4) (tests/filters/test_rgb.py): + 25, + 5, + 10.
        XCTAssertEqual(try adjusted([.channels(red: 10, green: 2, blue: 4)], [pixel]), [RGBA(r: 125, g: 205, b: 255, a: 128)])
        XCTAssertEqual(try adjusted([.brightness(percent: -100)], [pixel]), [RGBA(r: 0, g: 0, b: 0, a: 128)])
    }

    func testSaturationMovesAroundThePerceivedBrightness() throws {
        // √(100² × 0.299 + 200² × 0.587 + 250² × 0.114) = 183.29…
        XCTAssertEqual(try adjusted([.saturation(factor: 0)], [pixel]), [RGBA(r: 183, g: 183, b: 183, a: 128)])
        XCTAssertEqual(try adjusted([.saturation(factor: 1)], [pixel]), [pixel])
        let vivid = try adjusted([.saturation(factor: 2)], [pixel])[0]
        XCTAssertEqual([vivid.r, vivid.g, vivid.b], [16, 216, 255])
    }

    func testEqualizeSpreadsEachChannel() throws {
        let pixels = [10, 20, 30, 40].map { RGBA(r: UInt8($0), g: 7, b: UInt8(250 - $0), a: 255) }
        let out = try adjusted([.equalize], pixels)
        XCTAssertEqual(out.map(\.r), [0, 85, 170, 255])
        XCTAssertEqual(out.map(\.b), [255, 170, 85, 0])
        XCTAssertEqual(out.map(\.g), [7, 7, 7, 7], "a channel of one value has nothing to spread")
    }

    func testNoiseIsRepeatableAndMovesTheChannelsTogether() throws {
        let grey = [RGBA](repeating: RGBA(r: 120, g: 128, b: 136, a: 200), count: 64)
        let first = try adjusted([.noise(amount: 40, seed: 123)], grey)
        XCTAssertEqual(try adjusted([.noise(amount: 40, seed: 123)], grey), first)
        XCTAssertNotEqual(try adjusted([.noise(amount: 40, seed: 124)], grey), first)
        XCTAssertGreaterThan(Set(first.map(\.r)).count, 10)
        for out in first {
            let delta = Int(out.r) - 120
            XCTAssertTrue((-20..<20).contains(delta), "\(delta)")
            XCTAssertEqual([Int(out.g) - 128, Int(out.b) - 136, Int(out.a)], [delta, delta, 200])
        }
        XCTAssertEqual(try adjusted([.noise(amount: 0, seed: 1)], grey), grey)
    }

    func testKeysDifferByAdjustment() {
        let lists: [[ColorAdjustment]] = [[.brightness(percent: 1)], [.contrast(percent: 1)], [.saturation(factor: 1)], [.equalize],
                    [.noise(amount: 1, seed: 0)], [.channels(red: 1, green: 0, blue: 0)], [.equalize, .brightness(percent: 1)],
                    [.brightness(percent: 1), .equalize]]
        let keys = lists.map { ColorAdjustingTransformer($0).key }
        XCTAssertEqual(Set(keys).count, keys.count)
    }

    /// thumbor's `curve` (thumbor/ext/filters/_curve.c): a natural cubic spline through the
    /// points, flat before the first and from the last; levels worked out with thumbor's
    /// arithmetic for the second example of its filter's documentation.
    func testToneCurvesFollowThumborsSpline() throws {
        let red = try XCTUnwrap(ToneCurve([(0, 50), (16, 51), (32, 69), (58, 85), (92, 120), (128, 170), (140, 186), (167, 225),
                                           (192, 245), (225, 255), (244, 255), (255, 254)].map { ToneCurve.Point($0.0, $0.1) }))
        let green = try XCTUnwrap(ToneCurve([(0, 0), (16, 2), (32, 18), (64, 59), (92, 116), (128, 182), (167, 211), (192, 227),
                                             (224, 240), (244, 247), (255, 252)].map { ToneCurve.Point($0.0, $0.1) }))
        let levels = [0, 8, 16, 24, 40, 64, 100, 128, 150, 200, 230, 250, 255]
        XCTAssertEqual(levels.map { Int(red.table[$0]) }, [50, 49, 51, 59, 76, 89, 131, 170, 201, 249, 255, 254, 254])
        XCTAssertEqual(levels.map { Int(green.table[$0]) }, [0, 0, 2, 9, 27, 59, 133, 182, 201, 231, 242, 250, 252])
        let two = try XCTUnwrap(ToneCurve([ToneCurve.Point(40, 59), ToneCurve.Point(100, 200)]))
        XCTAssertEqual([0, 39, 40, 70, 99, 100, 255].map { Int(two.table[$0]) }, [59, 59, 59, 130, 198, 200, 200])
        let identity = try XCTUnwrap(ToneCurve([ToneCurve.Point(0, 0), ToneCurve.Point(255, 255)]))
        XCTAssertEqual(identity.table, (0...255).map(UInt8.init))
        XCTAssertNil(ToneCurve([]))
        XCTAssertNil(ToneCurve([ToneCurve.Point(10, 0), ToneCurve.Point(10, 5)]), "inputs must increase")
        // Channel curves first, then the curve of all three; alpha untouched.
        XCTAssertEqual(try adjusted([.curves(all: two, red: identity, green: green, blue: red)], [pixel]),
                       [RGBA(r: two.table[100], g: two.table[Int(green.table[200])], b: two.table[Int(red.table[250])], a: 128)])
    }
}
