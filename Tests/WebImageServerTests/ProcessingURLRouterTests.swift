import WebImageServer
import XCTest

/// Which form a path is read in, and which signatures are required when which keys are set.
final class ProcessingURLRouterTests: XCTestCase {
    private static let imgproxyKey = "736563726574", imgproxySalt = "68656C6C6F", thumborKey = "my-security-key"
    private let imgproxyPath = "/rs:fit:300:200/plain/http://example.com/a.jpg"
    private let thumborPath = "fit-in/300x200/http://example.com/a.jpg"

    private func router(_ format: ServedURLFormat = .both, imgproxy: Bool = false, thumbor: Bool = false) throws -> ProcessingURLRouter {
        ProcessingURLRouter(format: format,
                            imgproxySigner: try URLSigner(hexKeys: imgproxy ? [Self.imgproxyKey] : [],
                                                          hexSalts: imgproxy ? [Self.imgproxySalt] : []),
                            thumborSigner: ThumborURLSigner(key: thumbor ? Self.thumborKey : nil))
    }

    private func assertForbidden(_ router: ProcessingURLRouter, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try router.route(path), path, file: file, line: line) {
            guard case .forbidden = $0 as? ProcessingError else { return XCTFail("\($0) for \(path)", file: file, line: line) }
        }
    }

    func testTheFirstSegmentDecidesTheForm() throws {
        let both = try router()
        let fromThumbor = try both.route("/unsafe/" + thumborPath)
        let fromImgproxy = try both.route("/insecure" + imgproxyPath)
        XCTAssertEqual(fromThumbor.cacheKey, fromImgproxy.cacheKey)
        let signed = ThumborURLSigner(key: Self.thumborKey).sign(thumborPath)
        XCTAssertEqual(try both.route(signed).options.resizingType, .fit)
        XCTAssertEqual(try both.route(signed.replacingOccurrences(of: "=/", with: "%3D/")).options.width, 300)
        let imgproxySigned = try URLSigner(hexKeys: [Self.imgproxyKey], hexSalts: [Self.imgproxySalt], signatureSize: 20).sign(imgproxyPath)
        XCTAssertEqual(try both.route(imgproxySigned).options.width, 300, "imgproxy never pads: 20 bytes are 27 characters")
        // A thumbor path after an imgproxy placeholder is read as imgproxy's, and fails as such.
        XCTAssertThrowsError(try both.route("/insecure/" + thumborPath)) {
            XCTAssertEqual($0 as? ProcessingError, .invalidURL(.invalidSource("not URL-safe base64")))
        }
    }

    /// imgproxy's own test URL says `unsafe` before imgproxy options: thumbor's parser refuses
    /// it, so it is read as imgproxy's; and with a key set, `unsafe` is refused 403 before it is read.
    func testUnsafeImgproxyPathsAreReadAsImgproxysAndRefusedWhenSigningIsOn() throws {
        let both = try router()
        let url = try both.route("/unsafe/rs:fill:4:4/plain/local:///test1.png")
        XCTAssertEqual([url.options.width, url.options.height], [4, 4])
        XCTAssertEqual(url.options.resizingType, .fill)
        XCTAssertEqual(try both.route("/unsafe/" + thumborPath).options.width, 300, "thumbor's still read as thumbor's")
        for signed in [try router(imgproxy: true), try router(thumbor: true), try router(.imgproxy, imgproxy: true)] {
            for path in ["/unsafe/rs:fill:4:4/plain/local:///test1.png", "/unsafe/" + thumborPath, "/unsafe/%ZZ", "/unsafe/"] {
                assertForbidden(signed, path)
            }
        }
    }

    func testSingleFormRoutersReadEveryPathTheirWay() throws {
        let imgproxyOnly = try router(.imgproxy)
        XCTAssertEqual(try imgproxyOnly.route("/unsafe" + imgproxyPath).options.width, 300)
        XCTAssertThrowsError(try imgproxyOnly.route("/unsafe/" + thumborPath))
        let thumborOnly = try router(.thumbor)
        XCTAssertEqual(try thumborOnly.route("/anything/" + thumborPath).options.width, 300)
        XCTAssertThrowsError(try thumborOnly.route("/insecure" + imgproxyPath)) {
            guard case .invalidURL = $0 as? ProcessingError else { return XCTFail("\($0)") }
        }
    }

    func testAThumborKeyRequiresThumborSignatures() throws {
        let both = try router(thumbor: true)
        XCTAssertNoThrow(try both.route(ThumborURLSigner(key: Self.thumborKey).sign(thumborPath)))
        assertForbidden(both, "/unsafe/" + thumborPath)
        XCTAssertThrowsError(try both.route(ThumborURLSigner(key: "another key").sign(thumborPath))) {
            guard case .thumborSignatureRefused = $0 as? ProcessingError else { return XCTFail("\($0)") }
            XCTAssertEqual(($0 as? ProcessingError)?.status, 400, "as thumbor answers a bad signature")
        }
        XCTAssertThrowsError(try router(.thumbor, thumbor: true).route("/unsafe/" + thumborPath)) {
            XCTAssertEqual(($0 as? ProcessingError)?.status, 400, "where only thumbor URLs are served, as thumbor answers")
        }
        assertForbidden(both, "/insecure" + imgproxyPath)
        XCTAssertNoThrow(try router(.imgproxy, thumbor: true).route("/insecure" + imgproxyPath),
                         "a thumbor key means nothing where thumbor URLs are not answered")
    }

    /// thumbor's `ALLOW_UNSAFE_URL` (`--thumbor-allow-unsafe-url`): with the key, `unsafe`
    /// thumbor URLs are answered again; imgproxy's still need their signature.
    func testAllowingUnsafeThumborURLsKeepsImgproxysSigned() throws {
        let allowing = ProcessingURLRouter(format: .both, imgproxySigner: try URLSigner(hexKeys: [Self.imgproxyKey], hexSalts: [Self.imgproxySalt]),
                                           thumborSigner: ThumborURLSigner(key: Self.thumborKey, allowsUnsafe: true))
        XCTAssertEqual(try allowing.route("/unsafe/" + thumborPath).form, .thumbor)
        XCTAssertNoThrow(try allowing.route(ThumborURLSigner(key: Self.thumborKey).sign(thumborPath)))
        XCTAssertThrowsError(try allowing.route(ThumborURLSigner(key: "another key").sign(thumborPath)), "a wrong signature is still wrong")
        assertForbidden(allowing, "/insecure" + imgproxyPath)
    }

    func testAnImgproxyKeyLeavesNoUnsignedThumborURLs() throws {
        let both = try router(imgproxy: true)
        assertForbidden(both, "/unsafe/" + thumborPath)
        assertForbidden(both, ThumborURLSigner(key: Self.thumborKey).sign(thumborPath))
        let signed = try URLSigner(hexKeys: [Self.imgproxyKey], hexSalts: [Self.imgproxySalt]).sign(imgproxyPath)
        XCTAssertNoThrow(try both.route(signed))
        let keyed = try router(imgproxy: true, thumbor: true)
        XCTAssertNoThrow(try keyed.route(signed))
        XCTAssertNoThrow(try keyed.route(ThumborURLSigner(key: Self.thumborKey).sign(thumborPath)))
    }
}
