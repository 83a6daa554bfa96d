import Foundation
import LoopbackHTTPServer
import Locking
import WebImageTestSupport

/// Routes of a ``LoopbackHTTPServer`` that answer each request with a ``HostileResponse``
/// drawn from one seeded sequence, and count what they served.
final class HostileRoutes: Sendable {
    private struct State {
        var random: SeededRandom
        var served: [HostileResponse: Int] = [:]
    }

    private let state: Mutex<State>

    init(seed: UInt64) {
        state = Mutex(State(random: SeededRandom(seed: seed)))
    }

    /// Serves `image` (typed `contentType`) on `path` of `server`, hostilely.
    func route(_ path: String, on server: LoopbackHTTPServer, image: Data, contentType: String) {
        server.route(path) { [self] _ in
            state.withLock { state in
                let behaviour = HostileResponse.pick(using: &state.random)
                state.served[behaviour, default: 0] += 1
                return behaviour.response(for: image, contentType: contentType, using: &state.random)
            }
        }
    }

    /// How many responses of each behaviour were served.
    var served: [HostileResponse: Int] { state.withLock { $0.served } }
}
