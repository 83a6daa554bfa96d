import Dispatch
import Glibc
import Locking
@testable import WebImageServer
import XCTest

final class BackgroundWorkTests: XCTestCase {
    func testJobsRunInOrderOnAThreadAtTheLowestPriority() {
        let work = BackgroundWork(name: "test", limitBytes: 1 << 20)
        let ran = Mutex<[Int]>([])
        let niceness = Mutex<[Int32]>([])
        let done = DispatchSemaphore(value: 0)
        for i in 0..<50 {
            XCTAssertTrue(work.enqueue(holding: 100) {
                ran.withLock { $0.append(i) }
                niceness.withLock { $0.append(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) }
                if i == 49 { done.signal() }
            })
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(ran.withLock { $0 }, Array(0..<50))
        XCTAssertEqual(Set(niceness.withLock { $0 }), [19], "every job on the lowered thread")
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), 0, "the caller's priority is its own")
    }

    func testWorkPastTheLimitIsDroppedAndTheQueueTakesMoreOnceItDrains() {
        let work = BackgroundWork(name: "test", limitBytes: 1000)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let ran = Mutex<[String]>([])
        XCTAssertTrue(work.enqueue(holding: 600) {
            started.signal()
            gate.wait()
            ran.withLock { $0.append("first") }
        })
        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(work.enqueue(holding: 400) { ran.withLock { $0.append("second") } })
        XCTAssertFalse(work.enqueue(holding: 1) { ran.withLock { $0.append("dropped") } }, "600 + 400 waiting: full")
        gate.signal()
        let drained = DispatchSemaphore(value: 0)
        let deadline = ContinuousClock.now + .seconds(30)
        while !work.enqueue(holding: 1000, { drained.signal() }), ContinuousClock.now < deadline { usleep(1000) }
        XCTAssertEqual(drained.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(ran.withLock { $0 }, ["first", "second"])
    }

    func testWorkQueuedBeforeTheValueGoesAwayStillRuns() {
        let done = DispatchSemaphore(value: 0)
        do {
            let work = BackgroundWork(name: "test", limitBytes: 1000)
            work.enqueue(holding: 1) {
                usleep(50_000)
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
    }

    func testWorkWaitsWhileRequestsKeepArrivingAndRunsOnceTheyPause() {
        let work = BackgroundWork(name: "test", limitBytes: 1000,
                                  timing: .init(quietPeriod: .seconds(2), longestWait: .seconds(60)))
        let ran = DispatchSemaphore(value: 0)
        work.enqueue(holding: 1) { ran.signal() }
        for _ in 0..<10 {
            work.noteActivity()
            XCTAssertEqual(ran.wait(timeout: .now() + 0.1), .timedOut, "a request arrived under 2 s ago")
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 30), .success, "runs once requests pause for 2 s")
    }

    func testWorkRunsAfterItsLongestWaitUnderASteadyLoad() {
        let work = BackgroundWork(name: "test", limitBytes: 1000,
                                  timing: .init(quietPeriod: .seconds(60), longestWait: .milliseconds(300)))
        let ran = DispatchSemaphore(value: 0)
        let queued = ContinuousClock.now
        work.enqueue(holding: 1) { ran.signal() }
        var done = false
        while !done, ContinuousClock.now < queued + .seconds(30) {
            work.noteActivity()
            done = ran.wait(timeout: .now() + 0.05) == .success
        }
        XCTAssertTrue(done, "never ran while requests kept arriving")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - queued, .milliseconds(300), "ran before its longest wait")
    }
}
