import Foundation
import Locking
import WebImage

/// What the loads of a stress run ended with, recorded from any thread: how often each load
/// completed, how it ended, and whether an image was the one its URL serves. Workers wait here
/// for callback-style loads to complete; a watchdog can release them all.
final class StressOutcomes: Sendable {
    private struct State {
        var completions: [Int]
        var extraCallbacks = 0
        var kinds: [String: Int] = [:]
        var wrongImages: [String] = []
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var released = false
    }

    private let state: Mutex<State>

    init(loads: Int) {
        state = Mutex(State(completions: Array(repeating: 0, count: loads)))
    }

    /// Records the final result of `load`, whose image should be `expected`.
    func complete(_ load: Int, with result: Result<ImageResult, WebImageError>, expected: PixelSize) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.completions[load] += 1
            switch result {
            case .success(let loaded):
                state.kinds["image from \(loaded.source.rawValue)", default: 0] += 1
                let size = PixelSize(width: loaded.image.pixelWidth, height: loaded.image.pixelHeight)
                if size != expected { state.wrongImages.append("load \(load): \(size), expected \(expected)") }
            case .failure(let error):
                state.kinds[Self.kind(of: error), default: 0] += 1
            }
            return state.waiters.removeValue(forKey: load)
        }
        waiter?.resume()
    }

    /// Records a callback that was not the final one (none is asked for).
    func recordExtraCallback() {
        state.withLock { $0.extraCallbacks += 1 }
    }

    /// Returns once `load` has completed, or once ``releaseAll()`` was called.
    func waitForCompletion(of load: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.completions[load] > 0 || state.released { return true }
                state.waiters[load] = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Lets every waiting worker go on, for the watchdog of a run that went on too long.
    func releaseAll() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The loads that did not complete exactly once, as `load: count`.
    var loadsNotCompletedOnce: [String] {
        state.withLock { state in
            state.completions.enumerated().filter { $0.element != 1 }.map { "\($0.offset): \($0.element)" }
        }
    }

    /// Callbacks that were not final ones.
    var extraCallbacks: Int { state.withLock { $0.extraCallbacks } }

    /// How many loads ended each way (an image by source, or an error kind).
    var kinds: [String: Int] { state.withLock { $0.kinds } }

    /// Successful loads whose image was not the size their URL serves.
    var wrongImages: [String] { state.withLock { $0.wrongImages } }

    /// A short name for the kind of `error`: the case, with the status code for bad statuses.
    static func kind(of error: WebImageError) -> String {
        switch error {
        case .badStatusCode(let code): "status \(code)"
        case .badImageData: "bad image data"
        case .network: "network"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .failedURL: "failed before"
        default: "other: \(error)"
        }
    }
}
