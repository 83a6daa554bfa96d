import Locking
import WebImage
import XCTest

/// The generic in-flight map the manager and `webimage serve` share: identical concurrent
/// requests run their work once, and each caller can leave on its own.
final class InFlightWorkTests: XCTestCase {
    enum Failure: Error, Equatable {
        case cancelled
        case broken
    }

    /// How many times work ran, shared by the tasks that run it.
    final class Runs: Sendable {
        private let count = Mutex(0)

        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// The callers that have heard from the work, by number, shared by their event handlers.
    final class Heard: Sendable {
        private let callers = Mutex(Set<Int>())

        func add(_ caller: Int) { callers.withLock { _ = $0.insert(caller) } }
        var count: Int { callers.withLock { $0.count } }
    }

    func testAHundredCallersOfOneKeyRunTheWorkOnceAndNinetyNineJoin() async throws {
        let work = InFlightWork<String, Int, Failure, Int>(cancelled: .cancelled)
        let runs = Runs()
        let heard = Heard()
        // The work keeps telling its callers it runs until all hundred have heard it: each has
        // joined (or started it), however slowly the machine started their tasks, so a late
        // caller can never find it finished and start it again.
        let outcomes = try await withThrowingTaskGroup(of: (value: Int, joined: Bool).self) { group in
            for caller in 0..<100 {
                group.addTask {
                    try await work.value(for: "result", events: { _ in heard.add(caller) }) { tell async throws(Failure) in
                        runs.add()
                        while heard.count < 100 {
                            tell(0)
                            try? await Task.sleep(for: .milliseconds(1))
                        }
                        return 42
                    }
                }
            }
            return try await group.reduce(into: [(value: Int, joined: Bool)]()) { $0.append($1) }
        }
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(Set(outcomes.map(\.value)), [42])
        XCTAssertEqual(outcomes.filter(\.joined).count, 99)
        XCTAssertFalse(work.isRunning, "finished work leaves the map")
    }

    func testDifferentKeysAndNilKeysRunApartAndFailuresReachEveryCaller() async throws {
        let work = InFlightWork<String, Int, Failure, Never>(cancelled: .cancelled)
        let runs = Runs()
        let count: @Sendable (Int) async throws(Failure) -> Int = { value in
            runs.add()
            return value
        }
        async let a = work.value(for: "a") { _ async throws(Failure) in try await count(1) }
        async let b = work.value(for: "b") { _ async throws(Failure) in try await count(2) }
        async let alone = work.value(for: nil) { _ async throws(Failure) in try await count(3) }
        let values = try await [a.value, b.value, alone.value]
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(runs.value, 3)
        do {
            _ = try await work.value(for: "a") { _ async throws(Failure) -> Int in throw .broken }
            XCTFail("the work's failure is the caller's")
        } catch {
            XCTAssertEqual(error, .broken)
        }
    }

    func testACallerThatLeavesIsCancelledWhileTheOtherGetsTheValue() async throws {
        let work = InFlightWork<String, Int, Failure, Never>(cancelled: .cancelled)
        let started = Runs()
        let make: @Sendable (@escaping InFlightWork<String, Int, Failure, Never>.EventHandler) async throws(Failure) -> Int = { _ in
            started.add()
            try? await Task.sleep(for: .milliseconds(500))
            return 7
        }
        let staying = Task { try await work.value(for: "k", work: make) }
        let leaving = Task { try await work.value(for: "k", work: make) }
        while started.value == 0 { try await Task.sleep(for: .milliseconds(10)) }
        leaving.cancel()
        do {
            _ = try await leaving.value
            XCTFail("the leaving caller is cancelled")
        } catch {
            XCTAssertEqual(error as? Failure, .cancelled)
        }
        let kept = try await staying.value
        XCTAssertEqual(kept.value, 7, "the work goes on for the caller that stayed")
    }
}
