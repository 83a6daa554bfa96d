import WebImageServer
import XCTest

/// thumbor's HMAC-SHA1 signatures. The known answers were made by libthumbor 2.0.2 itself
/// (`pip install libthumbor` into `.build/venv`), not by this code:
///
/// ```python
/// from libthumbor import CryptoURL
/// from libthumbor.url_signers.base64_hmac_sha1 import UrlSigner
/// c = CryptoURL(key="my-security-key")
/// c.generate(width=300, height=200, fit_in=True, image_url="example.com/photos/cat.jpg")
/// c.generate(width=300, height=200, smart=True, image_url="http://example.com/a.jpg")
/// c.generate(crop=((10, 20), (410, 320)), width=0, height=100, halign="left", valign="top",
///            filters=["quality(80)", "format(webp)", "fill(ff0000)"], image_url="https://example.com/img.png")
/// UrlSigner("Ä key ✓").signature("fit-in/-300x-0/filters:blur(3):rotate(90)/local:///cat.jpg")
/// ```
final class ThumborURLSignerTests: XCTestCase {
    private static let libthumborURLs = [
        "/dTznYdEHzzOfX1OCP9aSeWy-utU=/fit-in/300x200/example.com/photos/cat.jpg",
        "/qDPF-3EKEy-sjsVH0HyyhGA5MSY=/300x200/smart/http://example.com/a.jpg",
        "/FmE7dTNg2L9mfugthN7ybItQsGY=/10x20:410x320/0x100/left/top/filters:quality(80):format(webp):fill(ff0000)/https://example.com/img.png",
    ]

    func testLibthumborsKnownAnswers() throws {
        let signer = ThumborURLSigner(key: "my-security-key")
        for url in Self.libthumborURLs {
            let signature = String(url.dropFirst().prefix { $0 != "/" })
            let path = String(url.dropFirst(signature.count + 2))
            XCTAssertEqual(signer.sign(path), url)
            XCTAssertNoThrow(try signer.verify(signature: signature, for: path), url)
            let parsed = try ThumborURLParser().parse(url)
            XCTAssertEqual(parsed.signature, signature)
            XCTAssertNoThrow(try signer.verify(signature: parsed.signature, for: String(parsed.signedPath.dropFirst())), url)
        }
        let unicodeKey = ThumborURLSigner(key: "Ä key ✓")
        XCTAssertEqual(unicodeKey.signature(for: "fit-in/-300x-0/filters:blur(3):rotate(90)/local:///cat.jpg"),
                       "SN2GdIplmBRrZLhEjfhCv9exSEU=")
    }

    func testPercentEncodedOrUnpaddedSignaturesPass() {
        let signer = ThumborURLSigner(key: "my-security-key")
        let path = "fit-in/300x200/example.com/photos/cat.jpg"
        XCTAssertNoThrow(try signer.verify(signature: "dTznYdEHzzOfX1OCP9aSeWy-utU%3D", for: path))
        XCTAssertNoThrow(try signer.verify(signature: "dTznYdEHzzOfX1OCP9aSeWy-utU", for: path))
    }

    func testWrongSignaturesAndUnsafeAreRefusedWithAKey() {
        let signer = ThumborURLSigner(key: "my-security-key")
        let path = "fit-in/300x200/example.com/photos/cat.jpg"
        let refusals: [(String, String, URLSignatureError)] = [
            ("unsafe", path, .unsigned),
            ("dTznYdEHzzOfX1OCP9aSeWy-utU=", "fit-in/300x201/example.com/photos/cat.jpg", .forbidden),
            ("eTznYdEHzzOfX1OCP9aSeWy-utU=", path, .forbidden),
            ("dTznYdEHzzOfX1OCP9aSeWy-ut", path, .forbidden),
            ("not base64!", path, .forbidden),
            ("", path, .forbidden),
        ]
        for (signature, signed, expected) in refusals {
            XCTAssertThrowsError(try signer.verify(signature: signature, for: signed), signature) {
                XCTAssertEqual($0 as? URLSignatureError, expected, signature)
            }
        }
        XCTAssertNotEqual(ThumborURLSigner(key: "other").signature(for: path), signer.signature(for: path))
    }

    func testWithoutAKeyNothingIsChecked() {
        let signer = ThumborURLSigner(key: nil)
        XCTAssertFalse(signer.isEnabled)
        XCTAssertFalse(ThumborURLSigner(key: "").isEnabled)
        XCTAssertEqual(signer.sign("fit-in/1x1/h/x.jpg"), "/unsafe/fit-in/1x1/h/x.jpg")
        XCTAssertNoThrow(try signer.verify(signature: "anything", for: "fit-in/1x1/h/x.jpg"))
    }
}
