/// The queued requests of a ``DownloadScheduler`` in start order: a binary heap with the most
/// urgent entry on top (highest priority, then oldest for FIFO or newest for LIFO).
///
/// Entries are never updated in place. A request whose priority changes gets a new entry, and
/// one that starts or is dropped keeps its old one; the scheduler skips such stale entries when
/// they reach the top. So queueing, re-prioritising and taking the next request each cost
/// O(log n) instead of a scan of every queued request.
struct DownloadQueue {
    /// A request as queued at one priority.
    struct Entry {
        /// The request; identifiers grow in creation order, which FIFO and LIFO follow.
        let operation: UInt64
        let priority: DownloadPriority
    }

    let order: DownloadExecutionOrder
    private var heap: [Entry] = []

    init(order: DownloadExecutionOrder) {
        self.order = order
    }

    /// Queues `entry`.
    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the most urgent entry, stale or not; nil when the queue is empty.
    mutating func popFirst() -> Entry? {
        guard let top = heap.first else { return nil }
        removeTop()
        return top
    }

    /// Forgets every entry.
    mutating func removeAll() {
        heap.removeAll()
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, precedes(heap[right], heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    /// Whether `a` starts before `b`.
    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        return order == .fifo ? a.operation < b.operation : a.operation > b.operation
    }
}
