#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the current thread is inside a download's inline start: the stretch in which a task
/// made with `Task.immediate` runs on its creator's thread, until it first waits.
///
/// A download started inside that stretch (by a request that failed before it was sent and so
/// freed its slot, or by a completion that asks for the next image) has its task enqueued
/// instead of run inline. Such chains then run one after another instead of each a call deeper
/// than the last. The mark belongs to the thread, not to a task: a task-local value would follow
/// the task past its first wait, onto other threads.
enum InlineStart {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether this thread is inside an inline start.
    static var isActive: Bool {
        pthread_getspecific(key) != nil
    }

    /// Runs `body` with this thread marked as inside an inline start.
    static func run<Result>(_ body: () -> Result) -> Result {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, nil) }
        return body()
    }
}
