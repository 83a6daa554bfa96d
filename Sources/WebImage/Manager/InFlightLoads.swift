import Locking

/// The loads under way, by what they produce, so that identical concurrent loads run once:
/// the cache query, the download, the decode, the transform and the store are shared by
/// every caller that asks while the load runs (Nuke's task coalescing, in WebImage's words).
final class InFlightLoads: Sendable {
    private let loads = Mutex<[ImageRequest.WorkKey: SharedLoad]>([:])

    /// The result of `work` for `key`: started by the first caller, shared with every caller
    /// that asks before it ends. `events` receives what happens from the moment this caller
    /// joined. A cancelled caller leaves with ``WebImageError/cancelled`` at once; the work
    /// is cancelled when its last caller has left.
    func result(
        for key: ImageRequest.WorkKey, events: ImageManagerEventHandler?,
        work: @escaping @Sendable (@escaping ImageManagerEventHandler) async throws(WebImageError) -> ImageResult
    ) async throws(WebImageError) -> ImageResult {
        let (load, ticket, isNew) = loads.withLock { loads in
            if let running = loads[key], let ticket = running.join(events: events) { return (running, ticket, false) }
            let load = SharedLoad(firstCaller: events)
            loads[key] = load
            return (load, SharedLoad.firstTicket, true)
        }
        if isNew {
            load.start(work) { [weak self] in
                self?.loads.withLock { loads in
                    if loads[key] === load { loads[key] = nil }
                }
            }
        }
        return try await load.result(for: ticket)
    }
}
