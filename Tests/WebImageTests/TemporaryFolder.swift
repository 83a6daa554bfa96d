import Foundation
import XCTest

/// A fresh folder under the system's temporary directory, deleted when the test ends.
struct TemporaryFolder {
    let url: URL

    /// Creates the folder and registers its deletion with `test`.
    init(_ test: XCTestCase) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let url = url
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    }

    /// A subfolder path (not created).
    func appending(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: true)
    }

    /// The names in `folder`, sorted.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}
