import Foundation
import Logging
import WebImageServer
import XCTest

/// ``LogLineBuffer`` and ``BufferedLogHandler`` writing to a real pipe: what reaches the
/// descriptor, and when.
final class LogLineBufferTests: XCTestCase {
    private var readEnd: Int32 = -1
    private var writeEnd: Int32 = -1

    override func setUpWithError() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    override func tearDown() {
        close(readEnd)
        close(writeEnd)
    }

    /// Whether the pipe has bytes to read within `seconds`.
    private func readable(within seconds: Double) -> Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(seconds * 1000)) == 1
    }

    /// The lines read from the pipe once it has bytes (within 10 seconds), up to its last line feed.
    private func lines() throws -> [String] {
        XCTAssertTrue(readable(within: 10), "nothing was written")
        var text = ""
        var chunk = [UInt8](repeating: 0, count: 65_536)
        repeat {
            let count = read(readEnd, &chunk, chunk.count)
            XCTAssertGreaterThan(count, 0)
            text += String(decoding: chunk.prefix(max(count, 0)), as: UTF8.self)
        } while !text.hasSuffix("\n") || readable(within: 0)
        return text.split(separator: "\n").map(String.init)
    }

    /// A line's text after its timestamp, which must look like `2026-11-23T20:18:59+0000`.
    private func afterStamp(_ line: String) -> String {
        let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} /#
        XCTAssertNotNil(line.prefixMatch(of: stamp), line)
        return String(line.drop { $0 != " " }.dropFirst())
    }

    func testLinesWaitInMemoryUntilFlushedThenArriveWholeAndInOrder() throws {
        let buffer = LogLineBuffer(descriptor: writeEnd, interval: .seconds(3600))
        buffer.append("first line")
        buffer.append("second line")
        XCTAssertFalse(readable(within: 0.05), "written before the flush")
        buffer.flush()
        XCTAssertEqual(try lines().map(afterStamp), ["first line", "second line"])
        buffer.flush()
        XCTAssertFalse(readable(within: 0.05), "a flush with nothing pending wrote something")
    }

    func testLinesAreWrittenWithinTheIntervalWithoutAFlush() throws {
        let buffer = LogLineBuffer(descriptor: writeEnd, interval: .milliseconds(20))
        buffer.append("on its own")
        XCTAssertEqual(try lines().map(afterStamp), ["on its own"])
        buffer.append("again")
        XCTAssertEqual(try lines().map(afterStamp), ["again"])
    }

    func testPassingTheLimitWritesAtOnce() throws {
        let buffer = LogLineBuffer(descriptor: writeEnd, interval: .seconds(3600), limit: 100)
        buffer.append(String(repeating: "a", count: 40))
        XCTAssertFalse(readable(within: 0.05), "written below the limit")
        buffer.append(String(repeating: "b", count: 40))
        XCTAssertEqual(try lines().map(afterStamp), [String(repeating: "a", count: 40), String(repeating: "b", count: 40)])
    }

    func testLinesFromManyThreadsAllArriveWhole() async throws {
        let buffer = LogLineBuffer(descriptor: writeEnd, interval: .milliseconds(5), limit: 512)
        let reader = Task.detached { [readEnd] () -> [String] in
            var text = ""
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while text.split(separator: "\n").count < 800 {
                let count = read(readEnd, &chunk, chunk.count)
                guard count > 0 else { break }
                text += String(decoding: chunk.prefix(count), as: UTF8.self)
            }
            return text.split(separator: "\n").map(String.init)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<100 { buffer.append("thread \(thread) line \(index)") }
        }
        buffer.flush()
        let received = await reader.value.map(afterStamp)
        XCTAssertEqual(received.count, 800)
        for thread in 0..<8 {
            // Each thread's lines whole and in the order it appended them.
            XCTAssertEqual(received.filter { $0.hasPrefix("thread \(thread) ") }, (0..<100).map { "thread \(thread) line \($0)" })
        }
    }

    func testTheHandlerWritesStreamLogHandlersFormatWithSortedMetadata() throws {
        let buffer = LogLineBuffer(descriptor: writeEnd, interval: .seconds(3600))
        var logger = Logger(label: "webimage.test") { BufferedLogHandler(label: $0, buffer: buffer, metadataProvider: nil) }
        logger[metadataKey: "instance"] = "a"
        logger.info("request", metadata: ["status": "200", "path": "/w:100/plain/x.jpg", "instance": "b"])
        logger.debug("not at the handler's level")
        logger.warning("plain")
        buffer.flush()
        XCTAssertEqual(try lines().map(afterStamp), [
            "info webimage.test: instance=b path=/w:100/plain/x.jpg status=200 [WebImageServerTests] request",
            "warning webimage.test: instance=a [WebImageServerTests] plain",
        ])
    }
}
