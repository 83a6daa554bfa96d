import AsyncHTTPClient
import Foundation
import Locking

/// The clients of a downloader's pinned requests (see ``ConnectionAddressPolicy``), one for
/// each host and the address chosen for it, kept while their connections may be reused: a
/// client in use is kept, one idle longer than its connections' idle time is shut down the
/// next time a client is handed back, and with an idle time of zero each is shut down as soon
/// as nothing uses it (no keep-alive). A host whose name resolves elsewhere later gets a client
/// of its own, so a connection is only ever reused to the address its host was checked at.
final class PinnedClientPool: Sendable {
    /// One kept client.
    private struct Entry {
        let client: HTTPClient
        /// The requests using it now.
        var users: Int
        /// When it was last handed back.
        var released: ContinuousClock.Instant
    }

    /// What the lock guards.
    private struct State {
        var entries: [String: Entry] = [:]
        /// After ``shutdown()``: clients handed back are shut down at once.
        var closed = false
    }

    /// How long a client with no request may be kept.
    private let idleTime: Duration
    private let state = Mutex(State())

    /// A pool keeping idle clients for `idleTime` (zero: not at all).
    init(idleTime: Duration) {
        self.idleTime = idleTime
    }

    /// The client connecting `host` to `address`, made by `make` when none is kept; give it
    /// back with ``release(host:address:)`` once its request is done.
    func client(host: String, address: String, make: () -> HTTPClient) -> HTTPClient {
        let key = Self.key(host: host, address: address)
        return state.withLock { state in
            if var entry = state.entries[key] {
                entry.users += 1
                state.entries[key] = entry
                return entry.client
            }
            let client = make()
            state.entries[key] = Entry(client: client, users: 1, released: .now)
            return client
        }
    }

    /// Hands back the client of `host` and `address`, and shuts down every client no request
    /// uses that has been idle past the idle time (this one at once when that is zero).
    func release(host: String, address: String) async {
        let key = Self.key(host: host, address: address)
        let now = ContinuousClock.now
        let stale = state.withLock { state -> [HTTPClient] in
            if var entry = state.entries[key] {
                entry.users -= 1
                entry.released = now
                state.entries[key] = entry
            }
            let keep = state.closed ? Duration.zero : idleTime
            let expired = state.entries.filter { $0.value.users == 0 && (keep == .zero || $0.value.released + keep < now) }
            for key in expired.keys { state.entries[key] = nil }
            return expired.values.map(\.client)
        }
        for client in stale { try? await client.shutdown() }
    }

    /// Shuts down every client no request uses, and later each one as it is handed back.
    func shutdown() async {
        let idle = state.withLock { state -> [HTTPClient] in
            state.closed = true
            let idle = state.entries.filter { $0.value.users == 0 }
            for key in idle.keys { state.entries[key] = nil }
            return idle.values.map(\.client)
        }
        for client in idle { try? await client.shutdown() }
    }

    /// The entry's key: the host and its address, which neither can hold a line feed.
    private static func key(host: String, address: String) -> String {
        host + "\n" + address
    }
}
