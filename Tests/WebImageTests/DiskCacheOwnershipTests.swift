#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// A disk cache owns only what it wrote: it tags the folders it creates, refuses a folder of
/// somebody else's files unless told to adopt it, and no operation touches a file whose name it
/// could not have produced.
final class DiskCacheOwnershipTests: XCTestCase {
    private let signature = "Signature: 8a477f597d28d172789f06886806bc55"
    private let month: TimeInterval = 30 * 24 * 60 * 60

    /// A user's files: names of every shape near the cache's own (upper-case hex, 31 and 33
    /// digits, two extensions, hidden look-alikes of sidecars and temporary files), a
    /// subfolder holding an entry-shaped name, each with its own bytes; half of them a month old.
    private let userFiles = [
        "thesis.txt", "holiday.jpg", "notes.txt", ".bashrc", "CACHEDIR.TAG.bak",
        "D41D8CD98F00B204E9800998ECF8427E.jpg", "d41d8cd98f00b204e9800998ecf8427.jpg",
        "d41d8cd98f00b204e9800998ecf8427e0", "d41d8cd98f00b204e9800998ecf8427e.tar.gz",
        "d41d8cd98f00b204e9800998ecf8427e.", ".d41d8cd98f00b204e9800998ecf8427e", ".notes.meta",
        ".d41d8cd98f00b204e9800998ecf8427e.tar.gz.meta", ".backup.tmp", ".12-xyz.tmp", ".-abc.tmp", "cache.tmp",
        "photos/0123456789abcdef0123456789abcdef.jpg",
    ]

    /// Writes ``userFiles`` into `folder`; returns each file's bytes and modification date.
    private func writeUserFiles(in folder: URL) throws -> [String: (data: Data, modified: Date)] {
        var written: [String: (Data, Date)] = [:]
        for (i, name) in userFiles.enumerated() {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = Data("\(name) belongs to the user \(i)\n".utf8)
            try data.write(to: url)
            let date = i % 2 == 0 ? Date() - month : Date() - 60
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
            var times = [timeval(tv_sec: Int(date.timeIntervalSince1970), tv_usec: 0), timeval(tv_sec: Int(date.timeIntervalSince1970), tv_usec: 0)]
            XCTAssertEqual(utimes(url.path, &times), 0)
            written[name] = (data, try modificationDate(url))
        }
        return written
    }

    private func modificationDate(_ url: URL) throws -> Date {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    /// Every user file is still there with the same bytes and modification date.
    private func assertUnchanged(_ files: [String: (data: Data, modified: Date)], in folder: URL, _ step: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        for (name, original) in files {
            let url = folder.appendingPathComponent(name)
            XCTAssertEqual(try? Data(contentsOf: url), original.data, "\(name) after \(step)", file: file, line: line)
            XCTAssertEqual(try? modificationDate(url), original.modified, "\(name) after \(step)", file: file, line: line)
        }
    }

    func testANewFolderIsCreatedWithACacheDirectoryTag() throws {
        let folder = try TemporaryFolder(self).appending("new/cache")
        let cache = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "opening creates nothing")
        try cache.store(Data("x".utf8), forKey: "k")
        let tag = try String(contentsOf: folder.appendingPathComponent("CACHEDIR.TAG"), encoding: .utf8)
        XCTAssertTrue(tag.hasPrefix(signature + "\n"), tag)
        XCTAssertEqual(cache.count, 1, "the tag is not an entry")
    }

    func testAnEmptyFolderAndAFolderOfCacheFilesAreTakenAndTagged() throws {
        let temp = try TemporaryFolder(self)
        let empty = temp.appending("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = try DiskCache(directory: empty, configuration: .init(autoTrimInterval: 0))
        XCTAssertEqual(TemporaryFolder.names(in: empty), ["CACHEDIR.TAG"])

        // A folder an earlier WebImage or SDWebImage wrote: entries, a sidecar, a temporary file.
        let older = temp.appending("older")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        let names = [MD5.hex("a"), MD5.hex("b") + ".png", "." + MD5.hex("b") + ".png.meta", ".4242-0123abcd.tmp"]
        for name in names { try Data(name.utf8).write(to: older.appendingPathComponent(name)) }
        let cache = try DiskCache(directory: older, configuration: .init(maxAge: -1, autoTrimInterval: 0))
        XCTAssertEqual(cache.data(forKey: "a"), Data(names[0].utf8))
        XCTAssertEqual(cache.count, 2)
        XCTAssertTrue(TemporaryFolder.names(in: older).contains("CACHEDIR.TAG"))
    }

    func testAFolderOfUserFilesIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryFolder(self).appending("home")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = try writeUserFiles(in: folder)
        let before = TemporaryFolder.names(in: folder)
        XCTAssertThrowsError(try DiskCache(directory: folder)) { error in
            XCTAssertEqual(error as? DiskCacheError, .unownedFolder(path: folder.path, foreignFile: ".-abc.tmp"))
            XCTAssertTrue("\(error)".contains("no CACHEDIR.TAG"), "\(error)")
        }
        XCTAssertEqual(TemporaryFolder.names(in: folder), before, "nothing written, not even a tag")
        try assertUnchanged(files, in: folder, "the refusal")
    }

    /// Explicitly adopted (no tag written) or tagged by another program, a folder of user files
    /// survives every operation of a cache with the shortest expiry and a tiny size limit.
    func testUserFilesSurviveEveryCacheOperation() throws {
        for tagged in [false, true] {
            let folder = try TemporaryFolder(self).appending("shared")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let files = try writeUserFiles(in: folder)
            if tagged { try Data((signature + "\n# another program's cache\n").utf8).write(to: folder.appendingPathComponent("CACHEDIR.TAG")) }
            let clock = ManualClock()
            let configuration = DiskCache.Configuration(
                maxAge: 1, maxSize: 10_000, autoTrimInterval: 0, usesExtendedAttributes: false, adoptsExistingFolder: !tagged,
                clock: { clock.date })
            let cache = try DiskCache(directory: folder, configuration: configuration)
            XCTAssertEqual(FileManager.default.fileExists(atPath: folder.appendingPathComponent("CACHEDIR.TAG").path), tagged,
                           "an adopted folder is not tagged: a tag would hide the user's files from backups")
            XCTAssertEqual(cache.count, 0, "user files are not entries")
            XCTAssertEqual(cache.totalAllocatedSize, 0)

            try cache.store(Data("first".utf8), forKey: "https://example.com/first.jpg")
            try cache.setExtendedData(Data("etag".utf8), forKey: "https://example.com/first.jpg")
            XCTAssertEqual(cache.extendedData(forKey: "https://example.com/first.jpg"), Data("etag".utf8), "in a sidecar")
            for i in 0..<20 { try cache.store(Data(repeating: UInt8(i), count: 4000), forKey: "https://example.com/\(i).jpg") }
            try assertUnchanged(files, in: folder, "stores and reads")
            waitUntil { cache.totalAllocatedSize <= 10_000 }
            try assertUnchanged(files, in: folder, "a size trim")
            clock.advance(by: 2)
            cache.removeExpired()
            XCTAssertEqual(cache.count, 0, "every entry expired")
            try assertUnchanged(files, in: folder, "removeExpired")
            try cache.store(Data("y".utf8), forKey: "z")
            cache.removeData(forKey: "z")
            try cache.store(Data("y".utf8), forKey: "w")
            cache.removeAll()
            try assertUnchanged(files, in: folder, "removeData and removeAll")
            let reopened = try DiskCache(directory: folder, configuration: configuration)
            reopened.removeExpired()
            try assertUnchanged(files, in: folder, "a new cache's start-up pass")
            var left = Set(TemporaryFolder.names(in: folder))
            left.remove("CACHEDIR.TAG")
            XCTAssertEqual(left, Set(userFiles.map { String($0.split(separator: "/")[0]) }), "the cache's own files are gone")
        }
    }

    func testEntryFileNames() {
        for name in [MD5.hex("k"), MD5.hex("k") + ".jpg", MD5.hex("k") + "." + String(repeating: "x", count: 222)] {
            XCTAssertTrue(DiskCache.isEntryFileName(name), name)
        }
        for name in ["thesis.txt", MD5.hex("k").uppercased(), String(MD5.hex("k").dropLast()), MD5.hex("k") + "0",
                     MD5.hex("k") + ".", MD5.hex("k") + ".tar.gz", MD5.hex("k") + "." + String(repeating: "x", count: 223),
                     MD5.hex("k") + ".a:b", "." + MD5.hex("k"), "CACHEDIR.TAG"] {
            XCTAssertFalse(DiskCache.isEntryFileName(name), name)
        }
        XCTAssertTrue(DiskCache.isEntryFileName(DiskCache.fileName(forKey: "https://example.com/a/b.webp?x=1")))
    }
}
