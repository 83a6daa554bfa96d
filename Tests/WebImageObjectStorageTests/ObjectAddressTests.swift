import Foundation
import WebImageObjectStorage
import XCTest

/// `s3://bucket/key` addresses and endpoints: the requests they make in both addressing
/// styles, and the hostile or malformed ones refused with a reason.
final class ObjectAddressTests: XCTestCase {
    private func location(_ text: String) throws -> ObjectLocation {
        try ObjectLocation(url: XCTUnwrap(URL(string: text)))
    }

    func testPathStyleNamesTheBucketInThePathAndEncodesTheKeyOnce() throws {
        let endpoint = try ObjectStorageEndpoint(url: "http://127.0.0.1:9000", region: "auto", usesPathStyle: true)
        let target = try endpoint.target(for: location("s3://photos/a%20b/%E1%88%B4+1.jpg"))
        XCTAssertEqual(target.url.absoluteString, "http://127.0.0.1:9000/photos/a%20b/%E1%88%B4%2B1.jpg")
        XCTAssertEqual(target.host, "127.0.0.1:9000")
        XCTAssertEqual(target.path, "/photos/a b/\u{1234}+1.jpg")
    }

    func testVirtualHostStyleNamesTheBucketInTheHost() throws {
        let endpoint = try ObjectStorageEndpoint(url: "storage.example", region: "auto", usesPathStyle: false)
        let target = try endpoint.target(for: location("s3://photos/cat.jpg"))
        XCTAssertEqual(target.url.absoluteString, "https://photos.storage.example/cat.jpg")
        XCTAssertEqual(target.host, "photos.storage.example")
        XCTAssertEqual(target.path, "/cat.jpg")
    }

    func testWithoutAnEndpointAWSsRegionalOneIsAsked() throws {
        let endpoint = try ObjectStorageEndpoint(url: nil, region: "eu-west-3", usesPathStyle: true)
        XCTAssertEqual(try endpoint.target(for: location("s3://photos/cat.jpg")).url.absoluteString,
                       "https://s3.eu-west-3.amazonaws.com/photos/cat.jpg")
    }

    func testEndpointsThatAreNotAnHTTPHostAreRefused() {
        for text in ["ftp://host", "https://", "https://host/path", "https://host?x=1", "https://user@host"] {
            XCTAssertThrowsError(try ObjectStorageEndpoint(url: text, region: "r", usesPathStyle: true), text) { error in
                guard case ObjectStorageError.invalidEndpoint = error else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testAddressesThatNameNoValidObjectAreRefused() {
        let long = String(repeating: "k", count: ObjectLocation.maxKeyBytes + 1)
        for text in ["http://photos/cat.jpg", "s3://Photos/cat.jpg", "s3://ab/cat.jpg", "s3://photos_1/cat.jpg", "s3://-photos/cat.jpg",
                     "s3://pho..tos/cat.jpg", "s3://user@photos/cat.jpg", "s3://photos:9000/cat.jpg", "s3://photos/cat.jpg#v1",
                     "s3://photos/a%0Ab.jpg", "s3://photos/\(long)", "s3://photos/../secrets/key.jpg", "s3://photos/a/%2E%2E/b.jpg",
                     "s3://photos/a/./b.jpg"] {
            XCTAssertThrowsError(try location(text), text) { error in
                guard case ObjectStorageError.invalidLocation = error else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testAVersionIsAskedForAsASignedVersionIdQuery() throws {
        let endpoint = try ObjectStorageEndpoint(url: "http://127.0.0.1:9000", region: "auto", usesPathStyle: true)
        let versioned = try location("s3://photos/cat.jpg?3/L4kqtJl%2B0")
        XCTAssertEqual(versioned.version, "3/L4kqtJl+0")
        let target = try endpoint.target(for: versioned)
        XCTAssertEqual(target.url.absoluteString, "http://127.0.0.1:9000/photos/cat.jpg?versionId=3%2FL4kqtJl%2B0")
        XCTAssertEqual(target.signingRequest(method: "GET").query.map(\.value), ["3/L4kqtJl+0"])
        XCTAssertNil(try location("s3://photos/cat.jpg").version)
        XCTAssertThrowsError(try location("s3://photos/cat.jpg?a%0Ab"))
        XCTAssertNil(try versioned.appending("x").version, "a name under a prefix is of no version")
    }

    func testAPrefixGainsItsObjectNamesAfterOneSlash() throws {
        XCTAssertEqual(try location("s3://results/cache").appending("abc").key, "cache/abc")
        XCTAssertEqual(try location("s3://results/cache/").appending("abc").key, "cache/abc")
        XCTAssertEqual(try location("s3://results").appending("abc").key, "abc")
    }
}
