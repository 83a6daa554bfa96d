import Locking
import Logging

/// Whether Redis is answering, as the cache last saw it: turns a run of failures into one
/// warning per outage, and the first success after it into one notice.
final class RedisHealth: Sendable {
    private let failing = Mutex(false)

    /// Notes a failure; logs a warning when it starts an outage.
    func failed(_ error: any Error, operation: String, logger: Logger) {
        let starts = failing.withLock { failing in
            defer { failing = true }
            return !failing
        }
        if starts {
            logger.warning("the Redis cache tier is failing; loads go on from the local caches and the origin",
                           metadata: ["operation": "\(operation)", "error": "\(error)"])
        }
    }

    /// Notes a success; logs a notice when it ends an outage.
    func succeeded(logger: Logger) {
        let ends = failing.withLock { failing in
            defer { failing = false }
            return failing
        }
        if ends { logger.notice("the Redis cache tier answers again") }
    }
}
