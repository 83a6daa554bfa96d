import Dispatch

/// Runs blocking file work on a dispatch queue so that no task of the cooperative pool waits
/// on the disk: the cache's I/O executor.
struct BlockingIO: Sendable {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility, attributes: .concurrent)
    }

    /// The result of `work`, run on the queue.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
