import Foundation
@testable import WebImageObjectStorage
import XCTest

/// The signer against cases of AWS's published Signature Version 4 test suite (as
/// awslabs/aws-c-auth carries it, tests/aws-signing-test-suite/v4): each case's request, its
/// canonical request and its signature, for the suite's credentials, region, service and time.
final class SigV4SignerTests: XCTestCase {
    /// One case of the suite.
    private struct Vector {
        let name: String
        var method = "GET"
        var path = "/"
        var query: [(name: String, value: String)] = []
        var headers: [(name: String, value: String)] = []
        var body: String?
        var sessionToken: String?
        /// The suite's canonical request, lines joined by newlines.
        let canonical: [String]
        let signature: String
    }

    private static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
    private static let host = ("Host", "example.amazonaws.com")

    private static let vectors: [Vector] = [
        Vector(name: "get-vanilla", headers: [host],
               canonical: ["GET", "/", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "", "host;x-amz-date", emptyHash],
               signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Vector(name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")], headers: [host],
               canonical: ["GET", "/", "Param1=value1&Param2=value2", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                           "host;x-amz-date", emptyHash],
               signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Vector(name: "get-vanilla-query-unreserved", query: [(unreserved, unreserved)], headers: [host],
               canonical: ["GET", "/", "\(unreserved)=\(unreserved)", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                           "host;x-amz-date", emptyHash],
               signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        Vector(name: "get-unreserved", path: "/\(unreserved)", headers: [host],
               canonical: ["GET", "/\(unreserved)", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                           "host;x-amz-date", emptyHash],
               signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Vector(name: "get-utf8", path: "/\u{1234}", headers: [host],
               canonical: ["GET", "/%E1%88%B4", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "", "host;x-amz-date",
                           emptyHash],
               signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        Vector(name: "get-space-unnormalized", path: "/example space/", headers: [host],
               canonical: ["GET", "/example%20space/", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                           "host;x-amz-date", emptyHash],
               signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
        Vector(name: "get-header-value-trim", headers: [host, ("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
               canonical: ["GET", "/", "", "host:example.amazonaws.com", "my-header1:value1", "my-header2:\"a b c\"",
                           "x-amz-date:20150830T123600Z", "", "host;my-header1;my-header2;x-amz-date", emptyHash],
               signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Vector(name: "get-header-key-duplicate",
               headers: [host, ("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
               canonical: ["GET", "/", "", "host:example.amazonaws.com", "my-header1:value2,value2,value1", "x-amz-date:20150830T123600Z",
                           "", "host;my-header1;x-amz-date", emptyHash],
               signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Vector(name: "get-vanilla-with-session-token", headers: [host],
               sessionToken: "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
               canonical: ["GET", "/", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z",
                           "x-amz-security-token:6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267", "",
                           "host;x-amz-date;x-amz-security-token", emptyHash],
               signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
        // The suite's one case that signs its body: the payload hash is sent as X-Amz-Content-SHA256, as S3 wants.
        Vector(name: "post-x-www-form-urlencoded", method: "POST",
               headers: [("Content-Type", "application/x-www-form-urlencoded"), host, ("Content-Length", "13")], body: "Param1=value1",
               canonical: ["POST", "/", "", "content-length:13", "content-type:application/x-www-form-urlencoded",
                           "host:example.amazonaws.com",
                           "x-amz-content-sha256:9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
                           "x-amz-date:20150830T123600Z", "", "content-length;content-type;host;x-amz-content-sha256;x-amz-date",
                           "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e"],
               signature: "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b"),
    ]

    private static let emptyHash = SigV4Signer.emptyPayloadHash
    private static let unreserved = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    private func signer(for vector: Vector) -> SigV4Signer {
        SigV4Signer(credentials: ObjectStorageCredentials(accessKeyID: "AKIDEXAMPLE",
                                                          secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                                          sessionToken: vector.sessionToken),
                    region: "us-east-1", service: "service", signsPayloadHash: vector.body != nil)
    }

    private func request(for vector: Vector) -> SigV4Request {
        SigV4Request(method: vector.method, path: vector.path, query: vector.query, headers: vector.headers,
                     payloadHash: vector.body.map { SigV4Signer.payloadHash(of: Data($0.utf8)) } ?? Self.emptyHash)
    }

    func testEachVectorsCanonicalRequestAndAuthorizationAreTheSuites() {
        for vector in Self.vectors {
            let signer = signer(for: vector)
            var request = request(for: vector)
            let headers = signer.signingHeaders(for: request, at: Self.date)
            let canonical = vector.canonical.joined(separator: "\n")
            let signedNames = vector.canonical[vector.canonical.count - 2]
            XCTAssertEqual(headers.last?.name, "Authorization", vector.name)
            XCTAssertEqual(headers.last?.value,
                           "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                               + "SignedHeaders=\(signedNames), Signature=\(vector.signature)", vector.name)
            request.headers += headers.dropLast()
            XCTAssertEqual(signer.canonicalRequest(request).text, canonical, vector.name)
        }
    }

    func testTheStringToSignIsTheSuites() {
        let vector = Self.vectors[0]
        let time = SigV4Time(Self.date)
        XCTAssertEqual(signer(for: vector).stringToSign(vector.canonical.joined(separator: "\n"), time: time,
                                                        scope: "20150830/us-east-1/service/aws4_request"),
                       "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                           + "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63")
    }

    func testAChangeToAnySignedPartChangesTheSignature() {
        let vector = Self.vectors[0]
        let signer = signer(for: vector)
        let base = signer.signingHeaders(for: request(for: vector), at: Self.date).last?.value
        var otherPath = request(for: vector)
        otherPath.path = "/other"
        var otherHost = request(for: vector)
        otherHost.headers = [("Host", "attacker.example")]
        let later = signer.signingHeaders(for: request(for: vector), at: Self.date.addingTimeInterval(1)).last?.value
        let others = [signer.signingHeaders(for: otherPath, at: Self.date).last?.value,
                      signer.signingHeaders(for: otherHost, at: Self.date).last?.value, later]
        XCTAssertEqual(Set(others + [base]).count, 4)
    }

    func testCredentialsNeverShowTheirKeys() {
        let credentials = ObjectStorageCredentials(accessKeyID: "AKIDSHOWN", secretAccessKey: "SECRETSHOWN", sessionToken: "TOKENSHOWN")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [String(describing: credentials), String(reflecting: credentials), dumped, "\(credentials)"] {
            XCTAssertFalse(text.contains("SHOWN"), text)
        }
    }
}
