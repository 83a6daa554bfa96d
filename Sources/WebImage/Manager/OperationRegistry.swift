import Locking

/// The operations a manager has handed out and not yet seen end, so that it knows of a load
/// from the moment its operation is returned rather than once its task reaches the stages.
final class OperationRegistry: Sendable {
    private let operations = Mutex<[ObjectIdentifier: WebImageOperation]>([:])

    /// Records `operation` as under way.
    func add(_ operation: WebImageOperation) {
        operations.withLock { $0[ObjectIdentifier(operation)] = operation }
    }

    /// Records that `operation` has ended.
    func remove(_ operation: WebImageOperation) {
        _ = operations.withLock { $0.removeValue(forKey: ObjectIdentifier(operation)) }
    }

    /// Whether no operation is under way.
    var isEmpty: Bool { operations.withLock { $0.isEmpty } }

    /// Cancels every operation under way.
    func cancelAll() {
        for operation in operations.withLock({ Array($0.values) }) { operation.cancel() }
    }
}
