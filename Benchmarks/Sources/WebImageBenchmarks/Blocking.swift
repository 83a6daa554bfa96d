import Dispatch
import Synchronization

/// Bridges the synchronous stopwatch to async code.
enum Blocking {
    /// Runs `body` on the concurrency pool and blocks the (benchmark) thread until it ends.
    static func await<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }
}
