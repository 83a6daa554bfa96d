import Foundation
import XCTest

/// A fresh folder under the system's temporary directory, deleted when the test ends.
public struct TemporaryFolder {
    /// The folder.
    public let url: URL

    /// Creates the folder and registers its deletion with `test`.
    public init(_ test: XCTestCase) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let url = url
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    }

    /// A subfolder path (not created).
    /// Makes the subfolder `name` holding a copy of each of `files` under its key (a file name
    /// in it), and returns it: the `images` folder a server's `local:///` sources are read from.
    @discardableResult
    public func folder(_ name: String, copying files: [String: URL]) throws -> URL {
        let folder = appending(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, source) in files { try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(file)) }
        return folder
    }

    public func appending(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: true)
    }

    /// The names in `folder`, sorted.
    public static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The names in the disk-cache folder `folder`, sorted, without the `CACHEDIR.TAG` that
    /// marks it as a cache (the ownership tests check that file).
    public static func cacheFileNames(in folder: URL) -> [String] {
        names(in: folder).filter { $0 != "CACHEDIR.TAG" }
    }
}
