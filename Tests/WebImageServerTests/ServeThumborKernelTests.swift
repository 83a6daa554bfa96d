import Foundation
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's `trim:bottom-right`, `fill(blur)`, `convolution` and `redeye` through a real
/// `webimage serve` on loopback, with the arithmetic of thumbor's C filters.
final class ServeThumborKernelTests: ServeTestCase {
    /// The reference pixel of the trim: the top left one sees grey as content, the bottom right one trims it.
    func testTrimFromTheBottomRightCorner() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = try servePNG("corner.png", width: 40, height: 30, fill: RGBA(r: 128, g: 128, b: 128), areas: [
            (PixelRect(x: 0, y: 0, width: 4, height: 4), RGBA(r: 0, g: 0, b: 255)),
            (PixelRect(x: 10, y: 5, width: 20, height: 15), RGBA(r: 200, g: 0, b: 0)),
        ])
        let (_, fromTopLeft) = try await fetched(base, "/unsafe/trim/filters:format(png)/\(source)", format: .png)
        XCTAssertEqual([fromTopLeft.pixelWidth, fromTopLeft.pixelHeight], [40, 30])
        let (_, fromBottomRight) = try await fetched(base, "/unsafe/trim:bottom-right:10/filters:format(png)/\(source)", format: .png)
        XCTAssertEqual([fromBottomRight.pixelWidth, fromBottomRight.pixelHeight], [30, 20])
        XCTAssertEqual(fromBottomRight.pixels[29, 19], RGBA(r: 200, g: 0, b: 0))
        let refused = try await get(base + "/unsafe/trim:bottom-left/\(source)")
        XCTAssertEqual(refused.status, 400)
    }

    /// tests/filters/test_fill.py `test_fill_filter_with_blur`: the fit-in box around the image is
    /// the image blurred and stretched, its colours where the image's are.
    func testFillWithBlurStretchesTheBlurredImage() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = try serveHalves()
        let (_, filled) = try await fetched(base, "/unsafe/fit-in/100x100/filters:fill(blur):format(png)/\(source)", format: .png)
        XCTAssertEqual([filled.pixelWidth, filled.pixelHeight], [100, 100])
        let left = filled.pixels[5, 5], right = filled.pixels[94, 94]
        XCTAssertGreaterThan(left.r, left.b, "\(left)")
        XCTAssertGreaterThan(right.b, right.r, "\(right)")
        XCTAssertEqual(left.a, 255)
        XCTAssertNotEqual(filled.pixels[5, 5], RGBA(r: 255, g: 0, b: 0), "blurred, not the image's own pixel")
        XCTAssertEqual(filled.pixels[10, 50], RGBA(r: 255, g: 0, b: 0), "the image itself in the middle")
        let (_, flat) = try await fetched(base, "/unsafe/fit-in/100x100/filters:fill(blue):format(png)/\(source)", format: .png)
        XCTAssertEqual(flat.pixels[5, 5], RGBA(r: 0, g: 0, b: 255))
    }

    /// tests/filters/test_convolution.py's kernels on a white dot in black (_convolution.c:
    /// weights over their sum, truncated, edges repeated), and its refusals: zero columns, a
    /// kernel without a centre, the ReDoS payload without a column count.
    func testConvolutionAndRedeye() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = try servePNG("dot.png", width: 9, height: 9, fill: RGBA(r: 0, g: 0, b: 0),
                                  areas: [(PixelRect(x: 4, y: 4, width: 1, height: 1), RGBA(r: 255, g: 255, b: 255))])
        let (_, blurred) = try await fetched(base, "/unsafe/filters:convolution(1;2;1;2;4;2;1;2;1,3,true):format(png)/\(source)",
                                             format: .png)
        XCTAssertEqual([blurred.pixels[4, 4].r, blurred.pixels[3, 4].r, blurred.pixels[3, 3].r, blurred.pixels[0, 0].r],
                       [63, 31, 15, 0])  // 255 × 4/16, × 2/16, × 1/16, truncated
        XCTAssertEqual(blurred.pixels[4, 4].a, 255)
        let (_, edges) = try await fetched(base, "/unsafe/filters:convolution(-1;-1;-1;-1;8;-1;-1;-1;-1,3,false):format(png)/\(source)",
                                           format: .png)
        XCTAssertEqual([edges.pixels[4, 4].r, edges.pixels[3, 4].r, edges.pixels[0, 0].r], [255, 0, 0])
        let (_, wide) = try await fetched(base, "/unsafe/filters:convolution(1;1;1,3,true):format(png)/\(source)", format: .png)
        XCTAssertEqual([wide.pixels[3, 4].r, wide.pixels[4, 3].r], [85, 0], "a 3 × 1 kernel blurs along the row only")

        for refused in ["convolution(1;2;1;2;4;2;1;2;1,0,true)", "convolution(1;2;1;2,2,true)",
                        "convolution(" + Array(repeating: "-11", count: 30).joined(separator: ";") + ")",
                        "convolution(" + Array(repeating: "1", count: 169).joined(separator: ";") + ",13,true)"] {
            let response = try await get(base + "/unsafe/filters:\(refused)/\(source)")
            XCTAssertEqual(response.status, 400, refused)
        }

        let (_, plain) = try await fetched(base, "/unsafe/filters:format(png)/\(source)", format: .png)
        // tests/filters/test_redeye.py `test_redeye_passthrough_when_no_face_points`, by either name.
        for name in ["redeye()", "red_eye()"] {
            let (_, redeye) = try await fetched(base, "/unsafe/filters:\(name):format(png)/\(source)", format: .png)
            XCTAssertEqual(redeye.pixels.bytes, plain.pixels.bytes, "without a face detector there is no eye to correct")
        }
    }
}
