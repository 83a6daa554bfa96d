import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `crop_aspect_ratio` on the 1024 px bench photo: the crop's area shrinks to
/// the ratio, or grows with `enlarge` and then fits the image keeping it.
final class ServeCropAspectRatioTests: XCTestCase {
    func testTheCropAreaTakesTheRatio() async throws {
        WebImageCodecs.registerDefaults()
        let folder = try TemporaryFolder(self)
        let root = folder.appending("images")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.bench("testjfif_1024.jpg"), to: root.appendingPathComponent("photo.jpg"))
        let height = try ImageCoders.shared.header(of: Data(contentsOf: root.appendingPathComponent("photo.jpg"))).pixelSize.height
        XCTAssertLessThan(height, 1000)
        try await withRouterTestServer(in: folder) { client in
            for (options, expected) in [("c:400:200/car:1", [200, 200]), ("c:400:200/car:1:1", [400, 400]),
                                        ("car:0.5/c:400:200", [100, 200]), ("c:1000:300/car:1:1", [height, height]),
                                        ("c:400:200/car:0", [400, 200])] {
                let answer = try await client.execute(uri: "/insecure/\(options)/f:png/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .ok, options)
                let size = try ImageCoders.shared.header(of: Data(buffer: answer.body)).pixelSize
                XCTAssertEqual([size.width, size.height], expected, options)
            }
        }
    }
}
