import Foundation
import WebImage
import XCTest

/// ``CodecExecutor``: work given it runs on its own threads, whose names profiles show.
final class CodecExecutorTests: XCTestCase {
    /// The name the system keeps for the calling thread (Linux: at most 15 bytes).
    private static func systemThreadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines)
    }

    func testWorkRunsOnThreadsNamedWithinTheSystemsLimit() async {
        let executor = CodecExecutor(threads: 2, name: "a-name-longer-than-fifteen-bytes")
        let name = await withTaskExecutorPreference(executor) { Self.systemThreadName() }
        XCTAssertTrue(name.hasPrefix("a-name-longer"), name)
        XCTAssertTrue(name.hasSuffix("-0") || name.hasSuffix("-1"), name)
        XCTAssertLessThanOrEqual(name.utf8.count, 15)
    }
}
