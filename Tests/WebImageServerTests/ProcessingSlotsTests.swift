@testable import WebImageServer
import XCTest

/// The work slots: at most `concurrency` bodies at once, waiting requests in order, refusal when the queue is full.
final class ProcessingSlotsTests: XCTestCase {
    func testQueuedWorkWaitsAndOverflowIsRefused() async throws {
        let slots = ProcessingSlots(concurrency: 1, maxQueue: 1)
        let (holding, holder) = AsyncStream<Void>.makeStream()
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await slots.run { () async throws(ProcessingError) -> String in
                holder.yield()
                for await _ in release { break }
                return "first"
            }
        }
        for await _ in holding { break }
        let second = Task { try await slots.run { () async throws(ProcessingError) -> String in "second" } }
        while slots.waitingCount < 1 { try await Task.sleep(for: .milliseconds(2)) }
        do {
            _ = try await slots.run { () async throws(ProcessingError) -> String in "third" }
            XCTFail("a third request ran with the slot taken and the queue full")
        } catch {
            XCTAssertEqual(error, .busy)
        }
        releaser.yield()
        let firstResult = try await first.value
        let secondResult = try await second.value
        XCTAssertEqual([firstResult, secondResult], ["first", "second"])
        // All slots free again.
        let after = try await slots.run { () async throws(ProcessingError) -> Int in 1 }
        XCTAssertEqual(after, 1)
    }
}
