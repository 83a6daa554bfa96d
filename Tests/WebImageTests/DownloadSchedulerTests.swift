@testable import WebImage
import Foundation
import XCTest

/// The downloader's bookkeeping on its own (no I/O): which request a caller joins, and when a
/// key is free for a new request again.
final class DownloadSchedulerTests: XCTestCase {
    private let key = DownloadKey(url: URL(string: "http://127.0.0.1:9/a.png")!)
    private let options = ImageLoaderOptions()

    private func caller(delivers: Bool = false) -> DownloadCaller {
        DownloadCaller(options: options, events: nil, delivers: delivers) { _ in }
    }

    func testCallersOfOneKeyJoinOneRequestUntilItFinishes() {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let first = scheduler.add(caller(), key: key, options: options)
        let second = scheduler.add(caller(), key: key, options: options)
        XCTAssertEqual(first.operation, second.operation)
        XCTAssertNotEqual(first.caller, second.caller)
        let other = scheduler.add(caller(), key: DownloadKey(url: URL(string: "http://127.0.0.1:9/b.png")!), options: options)
        XCTAssertNotEqual(other.operation, first.operation)

        let started = scheduler.takeStartable()
        XCTAssertEqual(started.map(\.operation), [first.operation])
        XCTAssertEqual(scheduler.finish(first.operation).count, 2)
        let after = scheduler.add(caller(), key: key, options: options)
        XCTAssertNotEqual(after.operation, first.operation, "a finished request is not joined")
        XCTAssertNotEqual(after.operation, other.operation)
    }

    func testAKeyWhoseQueuedRequestLostItsCallersGetsANewRequest() {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let first = scheduler.add(caller(), key: key, options: options)
        XCTAssertNotNil(scheduler.removeCaller(first.caller, of: first.operation).caller)
        XCTAssertNil(scheduler.records[first.operation], "a queued request without callers is dropped")
        let next = scheduler.add(caller(), key: key, options: options)
        XCTAssertNotEqual(next.operation, first.operation)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [next.operation])
    }

    func testTheLastCallerOfARunningRequestFreesTheKeyButNotTheSlot() {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let first = scheduler.add(caller(), key: key, options: options)
        XCTAssertEqual(scheduler.takeStartable().count, 1)
        _ = scheduler.removeCaller(first.caller, of: first.operation)
        let next = scheduler.add(caller(), key: key, options: options)
        XCTAssertNotEqual(next.operation, first.operation, "a cancelled request is not joined")
        XCTAssertTrue(scheduler.takeStartable().isEmpty, "the cancelled request holds its slot until it ends")
        XCTAssertTrue(scheduler.finish(first.operation).isEmpty)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [next.operation])
        XCTAssertEqual(scheduler.add(caller(), key: key, options: options).operation, next.operation,
                       "the old request's end leaves the new one joinable")
    }

    func testTheWatchdogTimesARequestOutAfterItsQuietRoundsAndProgressStartsTheCountAgain() throws {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let first = scheduler.add(caller(), key: key, options: options)
        let download = try XCTUnwrap(scheduler.takeStartable().first)
        // The first round sees the request, three more find it quiet: not yet four quiet rounds.
        for round in 1...4 {
            XCTAssertTrue(scheduler.timeOutRequests(afterQuietRounds: 4).requests.isEmpty, "round \(round)")
        }
        download.noteActivity()
        for round in 5...8 {
            XCTAssertTrue(scheduler.timeOutRequests(afterQuietRounds: 4).requests.isEmpty,
                          "round \(round): progress in round 5 starts the count again")
        }
        let (silent, keepWatching) = scheduler.timeOutRequests(afterQuietRounds: 4)
        XCTAssertEqual(silent.map(\.operation), [download.operation], "four quiet rounds after the last progress")
        XCTAssertTrue(keepWatching)
        XCTAssertTrue(scheduler.timedOut(first.operation))
        _ = scheduler.finish(first.operation)
        XCTAssertFalse(scheduler.timeOutRequests(afterQuietRounds: 4).keepWatching, "nothing runs any more")
    }

    func testAWholeDownloadLimitTimesOutARequestThatKeepsMakingProgress() throws {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let first = scheduler.add(caller(), key: key, options: options)
        let download = try XCTUnwrap(scheduler.takeStartable().first)
        for round in 1...6 {
            download.noteActivity()
            XCTAssertTrue(scheduler.timeOutRequests(afterQuietRounds: 4, orRounds: 6).requests.isEmpty,
                          "round \(round): progress every round, and the first round may come at once")
        }
        download.noteActivity()
        let (late, _) = scheduler.timeOutRequests(afterQuietRounds: 4, orRounds: 6)
        XCTAssertEqual(late.map(\.operation), [download.operation], "past six whole rounds, however steady the bytes")
        XCTAssertTrue(scheduler.timedOut(first.operation))
    }

    func testTheDelivererIsTheMostUrgentCallerWaitingOnATaskAndLeavesTheCallersItHandsOutTo() {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        var urgent = options
        urgent.priority = .high
        let withCallback = scheduler.add(DownloadCaller(options: urgent, events: nil, delivers: false) { _ in }, key: key, options: urgent)
        let waiting = scheduler.add(caller(delivers: true), key: key, options: options)
        let waitingUrgently = scheduler.add(DownloadCaller(options: urgent, events: nil, delivers: true) { _ in }, key: key, options: urgent)
        _ = scheduler.takeStartable()
        scheduler.exchangeEnded(withCallback.operation, bytes: 0)
        let deliverer = scheduler.takeDeliverer(of: withCallback.operation)
        XCTAssertEqual(deliverer?.delivers, true)
        XCTAssertEqual(deliverer?.priority, .high)
        XCTAssertNil(scheduler.removeCaller(waitingUrgently.caller, of: waitingUrgently.operation).caller,
                     "a deliverer has left the callers: a cancel does not complete it a second time")
        XCTAssertNotNil(scheduler.removeCaller(waiting.caller, of: waiting.operation).caller)
        XCTAssertNil(scheduler.takeDeliverer(of: withCallback.operation), "a callback cannot hand anything out")
        XCTAssertEqual(scheduler.finish(withCallback.operation).count, 1)
    }

    func testARequestFreesItsSlotAsItsBodyEndsOnlyWhileFewBytesWaitToBeHandedOut() {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let keys = ["a", "b", "c"].map { DownloadKey(url: URL(string: "http://127.0.0.1:9/\($0).png")!) }
        let (first, second, third) = (scheduler.add(caller(), key: keys[0], options: options),
                                      scheduler.add(caller(), key: keys[1], options: options),
                                      scheduler.add(caller(), key: keys[2], options: options))
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [first.operation])
        let budget = DownloadScheduler.handingOutLimits.bytes
        scheduler.exchangeEnded(first.operation, bytes: budget / 2 + 1)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [second.operation], "the next overlaps the decode")
        scheduler.exchangeEnded(second.operation, bytes: budget / 2)
        XCTAssertTrue(scheduler.takeStartable().isEmpty, "both bodies would go over the budget: the second keeps its slot")
        _ = scheduler.finish(first.operation)
        XCTAssertTrue(scheduler.takeStartable().isEmpty, "the second still holds its slot")
        _ = scheduler.finish(second.operation)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [third.operation])
    }

    func testACallerOfTheBytesAloneWaitsForNoDecode() throws {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let bytesCaller = DownloadCaller(options: options, events: nil, delivers: false, decodes: false) { _ in }
        XCTAssertNil(bytesCaller.decodeKey)
        let first = scheduler.add(bytesCaller, key: key, options: options)
        _ = scheduler.add(caller(), key: key, options: options)
        _ = scheduler.takeStartable()
        scheduler.exchangeEnded(first.operation, bytes: 100)
        let waiting = scheduler.undecodedCallers(of: first.operation, notIn: [])
        XCTAssertEqual(waiting.undecoded.count, 1, "only the caller of the image waits for a decode")
        let done = scheduler.undecodedCallers(of: first.operation, notIn: [try XCTUnwrap(caller().decodeKey)])
        XCTAssertEqual(done.finished?.count, 2)
    }

    func testEveryCallerSharingTheFirstDecodeFinishesTheRequest() throws {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        let first = scheduler.add(caller(), key: key, options: options)
        _ = scheduler.add(caller(), key: key, options: options)
        _ = scheduler.takeStartable()
        scheduler.exchangeEnded(first.operation, bytes: 100)
        let waiting = scheduler.undecodedCallers(of: first.operation, notIn: [])
        XCTAssertEqual(waiting.undecoded.count, 2)
        XCTAssertNil(waiting.finished)
        let done = scheduler.undecodedCallers(of: first.operation, notIn: [try XCTUnwrap(caller().decodeKey)])
        XCTAssertTrue(done.undecoded.isEmpty)
        XCTAssertEqual(done.finished?.count, 2)
        XCTAssertNil(scheduler.records[first.operation])
    }

    func testAQueuedRequestStartsAtThePriorityOfItsMostUrgentCallerStillWaiting() {
        var scheduler = DownloadScheduler(maxConcurrent: 1, order: .fifo)
        var urgent = options
        urgent.priority = .high
        let other = DownloadKey(url: URL(string: "http://127.0.0.1:9/b.png")!)
        let running = scheduler.add(caller(), key: DownloadKey(url: URL(string: "http://127.0.0.1:9/c.png")!), options: options)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [running.operation])
        let first = scheduler.add(caller(), key: key, options: options)
        let second = scheduler.add(caller(), key: other, options: options)
        let joined = scheduler.add(DownloadCaller(options: urgent, events: nil, delivers: false) { _ in }, key: other, options: urgent)
        XCTAssertEqual(scheduler.records[second.operation]?.priority, .high)
        _ = scheduler.removeCaller(joined.caller, of: second.operation)
        XCTAssertEqual(scheduler.records[second.operation]?.priority, .normal, "the urgent caller left")
        _ = scheduler.finish(running.operation)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [first.operation],
                       "back at its callers' priority, the later request waits its turn")
        _ = scheduler.add(DownloadCaller(options: urgent, events: nil, delivers: false) { _ in }, key: other, options: urgent)
        _ = scheduler.finish(first.operation)
        XCTAssertEqual(scheduler.takeStartable().map(\.operation), [second.operation])
    }
}
