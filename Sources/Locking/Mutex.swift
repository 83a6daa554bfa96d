// Every module of this package imports `Locking` instead of `Synchronization`. In a normal build
// this module only re-exports Synchronization, so `Mutex` is the standard library's futex-based
// lock. ThreadSanitizer, however, does not see the futex calls as synchronisation and reports
// every access under such a lock as a race, which buries real findings. `scripts/sanitize thread`
// therefore builds with `-DWEBIMAGE_TSAN`, and then the `Mutex` below, which locks a pthread
// mutex that ThreadSanitizer understands, shadows the standard one for every importer.
@_exported import Synchronization

#if WEBIMAGE_TSAN
import Glibc

/// A pthread-backed stand-in for `Synchronization.Mutex`, with the same spelling for the calls
/// this package makes, so that ThreadSanitizer sees its lock and unlock as synchronisation.
public final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock protecting `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        value = initialValue
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the protected value.
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
#endif
