import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// Crash safety across processes: `cache-writer` processes store real image bytes into one
/// folder, some are killed with SIGKILL at random moments, and a new cache then opens the
/// folder. Every entry a writer reported is there and whole; nothing else is.
final class DiskCacheCrashTests: XCTestCase {
    /// Real image bytes, large enough (980 KB) that a kill often lands in the middle of a write.
    private let image = Fixtures.image("gif/sd_1@2x.gif")

    func testWritersKilledAtRandomMomentsLeaveOnlyWholeEntries() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let imageData = try Fixtures.data(image)
        var writers: [(prefix: String, reported: Int)] = []
        var killsLeavingATemporaryFile = 0
        var rounds = 0
        // Six rounds, and more (up to 20) until a kill has landed mid-write: how often one does
        // depends on the machine's speed (ThreadSanitizer slows the rest of each store more than the write).
        while rounds < 6 || (killsLeavingATemporaryFile == 0 && rounds < 20) {
            let round = rounds
            rounds += 1
            let prefix = "round\(round)"
            let writer = try startWriter(on: folder, prefix: prefix, count: 500)
            let wanted = Int.random(in: 1...5)
            let reportedEnough = writer.wait(timeout: 60) { writer.outputLines.count >= wanted || !writer.isRunning }
            usleep(.random(in: 0...30_000))
            writer.killAndReap()
            let reported = writer.outputLines
            XCTAssertTrue(reportedEnough && !reported.isEmpty, "the writer reported no key: \(writer.errorOutput)")
            XCTAssertEqual(reported, (0..<reported.count).map { CacheWriterEntry.key(prefix: prefix, index: $0) })
            writers.append((prefix, reported.count))
            if TemporaryFolder.cacheFileNames(in: folder).contains(where: isTemporary) { killsLeavingATemporaryFile += 1 }
            try checkReopenedCache(on: folder, image: imageData, writers: writers)
        }
        XCTAssertGreaterThan(killsLeavingATemporaryFile, 0, "no kill landed in the middle of a write")
        print("DiskCacheCrashTests: \(killsLeavingATemporaryFile) of \(rounds) kills left a temporary file behind")
    }

    func testTwoWriterProcessesAndAReaderShareOneFolder() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let imageData = try Fixtures.data(image)
        let prefixes = ["a", "b"], perWriter = 40
        let writers = try prefixes.map { try startWriter(on: folder, prefix: $0, count: perWriter) }
        let reader = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        var verified: Set<String> = []
        var readsOfEntriesInProgress = 0
        let deadline = Date() + 120
        repeat {
            for (prefix, writer) in zip(prefixes, writers) {
                let reported = writer.outputLines
                for key in reported where !verified.contains(key) {
                    XCTAssertEqual(reader.data(forKey: key), CacheWriterEntry.data(image: imageData, key: key), key)
                    verified.insert(key)
                }
                // The entry being written right now: absent or whole, never torn.
                let next = CacheWriterEntry.key(prefix: prefix, index: reported.count)
                if let data = reader.data(forKey: next) {
                    XCTAssertEqual(data, CacheWriterEntry.data(image: imageData, key: next), next)
                    readsOfEntriesInProgress += 1
                }
            }
            usleep(1_000)
        } while writers.contains(where: \.isRunning) && Date() < deadline
        for writer in writers {
            XCTAssertEqual(writer.waitForExit(timeout: 10), 0, writer.errorOutput)
        }
        try checkReopenedCache(on: folder, image: imageData, writers: prefixes.map { ($0, perWriter) })
        for prefix in prefixes {
            for index in 0..<perWriter where !verified.contains(CacheWriterEntry.key(prefix: prefix, index: index)) {
                XCTAssertNotNil(reader.data(forKey: CacheWriterEntry.key(prefix: prefix, index: index)))
            }
        }
        XCTAssertEqual(reader.count, prefixes.count * perWriter, "the reader's index knows every entry it read")
        print("DiskCacheCrashTests: \(verified.count) entries verified while written, \(readsOfEntriesInProgress) read early")
    }

    /// Starts `cache-writer` storing `count` entries with keys from `prefix` into `folder`.
    private func startWriter(on folder: URL, prefix: String, count: Int) throws -> ChildProcess {
        try ChildProcess(BuiltProducts.executable("cache-writer"), [folder.path, image.path, prefix, String(count)])
    }

    /// Opens a new cache on `folder` and checks it against what each writer reported: every
    /// reported entry is there and byte-identical, the one a writer may have stored just before
    /// it was killed is absent or whole, `count` counts exactly the whole entries, and the new
    /// cache deletes the abandoned temporary files, leaving nothing but whole entries.
    private func checkReopenedCache(on folder: URL, image: Data, writers: [(prefix: String, reported: Int)],
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let cache = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        let count = cache.count
        var served: Set<String> = []
        for (prefix, reported) in writers {
            for index in 0...reported {
                let key = CacheWriterEntry.key(prefix: prefix, index: index)
                guard let data = cache.data(forKey: key) else {
                    if index < reported { XCTFail("reported entry \(key) was lost", file: file, line: line) }
                    continue
                }
                XCTAssertTrue(data == CacheWriterEntry.data(image: image, key: key),
                              "\(key) is not whole: \(data.count) bytes", file: file, line: line)
                served.insert(DiskCache.fileName(forKey: key))
            }
        }
        XCTAssertEqual(count, served.count, "count counts only whole entries", file: file, line: line)
        waitUntil(file: file, line: line) { !TemporaryFolder.cacheFileNames(in: folder).contains(where: isTemporary) }
        XCTAssertEqual(Set(TemporaryFolder.cacheFileNames(in: folder)), served, "only whole entries remain", file: file, line: line)
    }

    /// Whether `name` is a disk cache's temporary file (`.<pid>-<random>.tmp`).
    private func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }
}
