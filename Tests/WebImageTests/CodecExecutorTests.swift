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

    /// The threads of this process whose system name starts with `prefix`.
    private static func threads(named prefix: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix(prefix)
        }.count
    }

    /// Waits up to 10 seconds for `condition`; whether it came true.
    private static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    func testShutdownEndsTheThreadsAndLaterWorkStillRuns() async {
        let executor = CodecExecutor(threads: 3, name: "ending")
        let before = await withTaskExecutorPreference(executor) { Self.systemThreadName() }
        XCTAssertTrue(before.hasPrefix("ending-"), before)
        let started = await Self.eventually { Self.threads(named: "ending-") == 3 }
        XCTAssertTrue(started, "three threads run")
        executor.shutdown()
        let ended = await Self.eventually { Self.threads(named: "ending-") == 0 }
        XCTAssertTrue(ended, "\(Self.threads(named: "ending-")) threads left after shutdown")
        // Work given after shutdown runs, on a thread started for it, which ends too.
        let late = await withTaskExecutorPreference(executor) { Self.systemThreadName() }
        XCTAssertEqual(late, "ending-late")
        let lateEnded = await Self.eventually { Self.threads(named: "ending-") == 0 }
        XCTAssertTrue(lateEnded, "the late thread ends")
    }
}
