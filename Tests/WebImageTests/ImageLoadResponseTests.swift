@testable import WebImage
import Foundation
import XCTest

/// What a response keeps of the header fields a server sent.
final class ImageLoadResponseTests: XCTestCase {
    func testFieldsAreKeptByLowercaseNameWithRepeatsJoinedInOrder() {
        let fields = ImageLoadResponse.lowercasedFields([
            ("Content-Type", "image/jpeg"), ("X-Trace", "a"), ("x-TRACE", "b"), ("x-trace", "c"), ("ETag", "\"v1\""),
        ])
        XCTAssertEqual(fields, ["content-type": "image/jpeg", "x-trace": "a, b, c", "etag": "\"v1\""])
        let response = ImageLoadResponse(url: URL(string: "http://127.0.0.1/a.jpg")!, statusCode: 200, lowercasedHeaders: fields)
        XCTAssertEqual(response[header: "X-TRACE"], "a, b, c")
        XCTAssertEqual(response.etag, "\"v1\"")
        XCTAssertEqual(response.mimeType, "image/jpeg")
    }
}
