import Foundation
import WebImageTestSupport
import XCTest

/// `webimage sign` run as the built binary.
final class SignCommandTests: XCTestCase {
    private func sign(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32?, output: String, error: String) {
        try ChildProcess.run(BuiltProducts.executable("webimage"), ["sign"] + arguments, environment: environment)
    }

    func testPrintsImgproxysDocumentedSignature() throws {
        let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
        let result = try sign(["--key", "736563726574", "--salt", "68656C6C6F", path])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(result.output, "/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8\(path)\n")
    }

    func testReadsKeyAndSaltFromImgproxysEnvironmentVariables() throws {
        let result = try sign(["--signature-size", "8", "/w:10/plain/http://h/x"],
                              environment: ["IMGPROXY_KEY": "736563726574", "IMGPROXY_SALT": "68656C6C6F"])
        XCTAssertEqual(result.status, 0, result.error)
        let signature = result.output.dropFirst().prefix { $0 != "/" }
        XCTAssertEqual(signature.count, 11)
        XCTAssertTrue(result.output.hasSuffix("/w:10/plain/http://h/x\n"))
    }

    func testWithoutAKeyTheSignatureIsInsecure() throws {
        let result = try sign(["/w:10/plain/http://h/x"], environment: ["IMGPROXY_KEY": "", "IMGPROXY_SALT": ""])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(result.output, "/insecure/w:10/plain/http://h/x\n")
    }

    func testBadHexIsAOneLineErrorThatDoesNotEchoTheKey() throws {
        let result = try sign(["--key", "secretkeyzz", "--salt", "00", "/w:10/plain/http://h/x"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.error, "webimage: the key is not hexadecimal\n")
        XCTAssertFalse(result.error.contains("secretkeyzz"))
    }
}
