import Locking

/// The loads under way, by what they produce, so that identical concurrent loads run once:
/// the cache query, the download, the decode, the transform and the store are shared by
/// every caller that asks while the load runs (Nuke's task coalescing, in WebImage's words).
/// A load that cannot be compared with others runs alone, but is under way here all the same.
final class InFlightLoads: Sendable {
    /// A load's place in the map: its work key, or a number of its own.
    private enum Slot: Hashable {
        case shared(ImageRequest.WorkKey)
        case alone(Int)
    }

    private struct State {
        var loads: [Slot: SharedLoad] = [:]
        var nextAlone = 0
    }

    private let state = Mutex(State())

    /// The result of `work` for `key`: started by the first caller, shared with every caller
    /// that asks with the same key before it ends (nil: shared with nobody). `events` receives
    /// what happens from the moment this caller joined. A cancelled caller leaves with
    /// ``WebImageError/cancelled`` at once; the work is cancelled when its last caller has left.
    func result(
        for key: ImageRequest.WorkKey?, events: ImageLoadingEventHandler?,
        work: @escaping @Sendable (@escaping ImageLoadingEventHandler) async throws(WebImageError) -> ImageResult
    ) async throws(WebImageError) -> ImageResult {
        let (slot, load, ticket, isNew) = state.withLock { state in
            let slot: Slot
            if let key {
                slot = .shared(key)
                if let running = state.loads[slot], let ticket = running.join(events: events) {
                    return (slot, running, ticket, false)
                }
            } else {
                state.nextAlone += 1
                slot = .alone(state.nextAlone)
            }
            let load = SharedLoad(firstCaller: events)
            state.loads[slot] = load
            return (slot, load, SharedLoad.firstTicket, true)
        }
        if isNew {
            load.start(work) { [weak self] in
                self?.state.withLock { state in
                    if state.loads[slot] === load { state.loads[slot] = nil }
                }
            }
        }
        return try await load.result(for: ticket)
    }

    /// Whether any load is under way.
    var isRunning: Bool { state.withLock { !$0.loads.isEmpty } }

    /// Cancels every load under way: each caller gets ``WebImageError/cancelled`` at once.
    func cancelAll() {
        let loads = state.withLock { Array($0.loads.values) }
        for load in loads { load.cancel() }
    }
}
