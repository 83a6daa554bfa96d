import WebImageServer
import XCTest

/// Signatures as imgproxy makes them: its documented example, truncation, key rotation, refusals.
final class URLSignerTests: XCTestCase {
    /// imgproxy's "Signing the URL" guide: key `secret`, salt `hello`.
    private static let documentedPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
    private static let documentedSignature = "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"

    func testDocumentedKnownAnswer() throws {
        let signer = try URLSigner(hexKeys: ["736563726574"], hexSalts: ["68656C6C6F"])
        XCTAssertEqual(signer.signature(for: Self.documentedPath), Self.documentedSignature)
        XCTAssertEqual(signer.sign(Self.documentedPath), "/" + Self.documentedSignature + Self.documentedPath)
        XCTAssertNoThrow(try signer.verify(signature: Self.documentedSignature, for: Self.documentedPath))
    }

    func testTruncatedSignatures() throws {
        let signer = try URLSigner(hexKeys: ["736563726574"], hexSalts: ["68656C6C6F"], signatureSize: 8)
        let signature = signer.signature(for: Self.documentedPath)
        // 8 bytes are 11 base64 characters, the prefix of the full signature's first 8 bytes.
        XCTAssertEqual(signature.count, 11)
        XCTAssertTrue(Self.documentedSignature.hasPrefix(String(signature.prefix(10))))
        XCTAssertNoThrow(try signer.verify(signature: signature, for: Self.documentedPath))
        XCTAssertThrowsError(try signer.verify(signature: Self.documentedSignature, for: Self.documentedPath))
        XCTAssertThrowsError(try URLSigner(keys: [], signatureSize: 33)) {
            XCTAssertEqual($0 as? URLSignatureError, .invalidSignatureSize(33))
        }
    }

    func testAnyOfSeveralPairsVerifiesAndTheFirstSigns() throws {
        let old = try URLSigner(hexKeys: ["00ff"], hexSalts: ["01"])
        let rotated = try URLSigner(hexKeys: ["abcd", "00ff"], hexSalts: ["02", "01"])
        let path = "/w:10/plain/http://h/x"
        XCTAssertNoThrow(try rotated.verify(signature: old.signature(for: path), for: path))
        XCTAssertNotEqual(rotated.signature(for: path), old.signature(for: path))
        XCTAssertNoThrow(try rotated.verify(signature: rotated.signature(for: path), for: path))
    }

    func testWrongMissingOrMalformedSignaturesAreForbidden() throws {
        let signer = try URLSigner(hexKeys: ["736563726574"], hexSalts: ["68656C6C6F"])
        let path = Self.documentedPath
        var altered = Array(Self.documentedSignature)
        altered[5] = altered[5] == "A" ? "B" : "A"
        for signature in [String(altered), "", "insecure", "not base64!", String(Self.documentedSignature.dropLast())] {
            XCTAssertThrowsError(try signer.verify(signature: signature, for: path), signature) {
                XCTAssertEqual($0 as? URLSignatureError, .forbidden)
                XCTAssertFalse("\($0)".contains("oKfU"))
            }
        }
        // The path is signed as received: decoding or re-encoding it breaks the signature.
        XCTAssertThrowsError(try signer.verify(signature: Self.documentedSignature, for: path.replacingOccurrences(of: ":0", with: ":false")))
    }

    /// imgproxy's security/signature_test.go, its vectors: key `test-key`, salt `test-salt`
    /// (and `test-key2`, `test-salt2`), the path `asd`; truncation to 8 bytes; trusted signatures.
    func testImgproxysOwnSignatureVectors() throws {
        let key = Data("test-key".utf8).map { String(format: "%02x", $0) }.joined()
        let salt = Data("test-salt".utf8).map { String(format: "%02x", $0) }.joined()
        let signer = try URLSigner(hexKeys: [key], hexSalts: [salt])
        XCTAssertNoThrow(try signer.verify(signature: "oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", for: "/asd"))
        XCTAssertThrowsError(try signer.verify(signature: "oWaL7QoW5Ts", for: "/asd"), "truncated where the size is 32")
        let truncated = try URLSigner(hexKeys: [key], hexSalts: [salt], signatureSize: 8)
        XCTAssertNoThrow(try truncated.verify(signature: "oWaL7QoW5Ts", for: "/asd"))

        let key2 = Data("test-key2".utf8).map { String(format: "%02x", $0) }.joined()
        let salt2 = Data("test-salt2".utf8).map { String(format: "%02x", $0) }.joined()
        let pairs = try URLSigner(hexKeys: [key, key2], hexSalts: [salt, salt2])
        XCTAssertNoThrow(try pairs.verify(signature: "jYz1UZ7j1BCdSzH3pZhaYf0iuz0vusoOTdqJsUT6WXI", for: "/asd"))
        XCTAssertNoThrow(try pairs.verify(signature: "oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", for: "/asd"))
        XCTAssertThrowsError(try pairs.verify(signature: "dtLwhdnPPis", for: "/asd"))

        let trusting = try URLSigner(hexKeys: [key], hexSalts: [salt], trustedSignatures: ["truested"])
        XCTAssertNoThrow(try trusting.verify(signature: "truested", for: "/asd"))
        XCTAssertThrowsError(try trusting.verify(signature: "untrusted", for: "/asd"))
    }

    func testSigningOffAcceptsAnything() throws {
        let signer = try URLSigner(keys: [])
        XCTAssertFalse(signer.isEnabled)
        XCTAssertNoThrow(try signer.verify(signature: "anything", for: "/plain/http://h/x"))
        XCTAssertEqual(signer.sign("/plain/http://h/x"), "/insecure/plain/http://h/x")
    }

    func testBadHexAndUnpairedKeys() {
        XCTAssertThrowsError(try URLSigner(hexKeys: ["abc"], hexSalts: ["00"])) {
            XCTAssertEqual($0 as? URLSignatureError, .invalidHex(what: "key"))
        }
        XCTAssertThrowsError(try URLSigner(hexKeys: ["ab"], hexSalts: ["zz"])) {
            XCTAssertEqual($0 as? URLSignatureError, .invalidHex(what: "salt"))
        }
        XCTAssertThrowsError(try URLSigner(hexKeys: ["ab", "cd"], hexSalts: ["00"])) {
            XCTAssertEqual($0 as? URLSignatureError, .unpairedKeys(keys: 2, salts: 1))
        }
    }
}
