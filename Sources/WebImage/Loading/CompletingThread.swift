#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the current thread is completing a download (``HTTPImageDownloader/complete(_:with:)``).
///
/// A completion starts the next queued requests on its thread. AsyncHTTPClient refuses some
/// requests at once (a header value it cannot send, say), and an exchange refused on its event
/// loop completes inline, inside the completion that started it. Such a completion is moved to
/// a task, so that a queue of refused requests ends one after another instead of each a call
/// deeper than the last. The mark belongs to the thread, not to a task: a task-local value
/// would follow a task onto other threads.
enum CompletingThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether this thread is inside a completion.
    static var isActive: Bool {
        pthread_getspecific(key) != nil
    }

    /// Runs `body` with this thread marked as inside a completion.
    static func run<Result>(_ body: () -> Result) -> Result {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, nil) }
        return body()
    }
}
