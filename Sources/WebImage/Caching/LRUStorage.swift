/// The state behind ``MemoryCache``: a hash map from key to slot plus a doubly linked list
/// threaded through an array of slots, most recently used at the head.
///
/// Every operation is O(1). Nodes are array slots linked by index, so an entry costs no
/// allocation of its own; freed slots are reused. Not thread-safe: ``MemoryCache`` guards it.
struct LRUStorage<Key: Hashable, Value> {
    /// One slot of the list. A free slot has no key or value and sits in the free list.
    struct Node {
        var key: Key?
        var value: Value?
        var cost: Int
        /// When the value was stored, for the age limit.
        var stored: ContinuousClock.Instant
        var previous: Int
        var next: Int
    }

    /// The marker for "no node".
    static var none: Int { -1 }

    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var head = LRUStorage.none
    private var tail = LRUStorage.none
    /// The sum of the costs of the entries held.
    private(set) var totalCost = 0

    /// The number of entries held.
    var count: Int { slots.count }

    /// The slot holding `key`, if it is held: the handle the slot operations below take, so
    /// that a lookup hashes the key once.
    func slot(forKey key: Key) -> Int? {
        // An empty storage answers without hashing the key (the failed-URL list is mostly empty).
        slots.isEmpty ? nil : slots[key]
    }

    /// When the entry in `slot` was stored.
    func storedInstant(at slot: Int) -> ContinuousClock.Instant { nodes[slot].stored }

    /// The value in `slot`, moved to the head (most recently used).
    mutating func touch(_ slot: Int) -> Value? {
        moveToHead(slot)
        return nodes[slot].value
    }

    /// Stores `value` at the head, replacing any entry under `key`; returns the replaced value.
    mutating func set(_ value: Value, forKey key: Key, cost: Int, at instant: ContinuousClock.Instant) -> Value? {
        if let index = slots[key] {
            totalCost += cost - nodes[index].cost
            let old = nodes[index].value
            nodes[index].value = value
            nodes[index].cost = cost
            nodes[index].stored = instant
            moveToHead(index)
            return old
        }
        let node = Node(key: key, value: value, cost: cost, stored: instant, previous: Self.none, next: Self.none)
        let index: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            index = free
        } else {
            nodes.append(node)
            index = nodes.count - 1
        }
        slots[key] = index
        totalCost += cost
        linkAtHead(index)
        return nil
    }

    /// Removes the entry for `key`; returns its value.
    mutating func remove(_ key: Key) -> Value? {
        slots[key].flatMap { release($0) }
    }

    /// Removes the entry in `slot`; returns its value.
    mutating func remove(at slot: Int) -> Value? {
        release(slot)
    }

    /// Removes the least recently used entry; returns its value.
    mutating func removeLeastRecentlyUsed() -> Value? {
        tail == Self.none ? nil : release(tail)
    }

    /// Removes every entry for which `isDoomed(stored instant)` holds; returns their values.
    mutating func removeAll(where isDoomed: (ContinuousClock.Instant) -> Bool) -> [Value] {
        var removed: [Value] = []
        var index = tail
        while index != Self.none {
            let previous = nodes[index].previous
            if isDoomed(nodes[index].stored), let value = release(index) { removed.append(value) }
            index = previous
        }
        return removed
    }

    /// Empties the storage and gives back its memory; returns the values that were held.
    mutating func removeAll() -> [Value] {
        let values = nodes.compactMap(\.value)
        self = LRUStorage()
        return values
    }

    /// Unlinks the node at `index`, frees its slot and returns its value.
    private mutating func release(_ index: Int) -> Value? {
        unlink(index)
        if let key = nodes[index].key { slots[key] = nil }
        totalCost -= nodes[index].cost
        let value = nodes[index].value
        nodes[index].key = nil
        nodes[index].value = nil
        nodes[index].cost = 0
        freeSlots.append(index)
        return value
    }

    /// Makes the node at `index` the head. A hit on the head (a key asked for again and again)
    /// changes nothing; other hits relink through one exclusive access to the nodes, not one
    /// checked array access per link.
    private mutating func moveToHead(_ index: Int) {
        guard index != head else { return }
        let oldHead = head
        // `index` is not the head, so it has a previous node and the list has a head.
        let newTail = nodes.withUnsafeMutableBufferPointer { nodes -> Int? in
            let previous = nodes[index].previous, next = nodes[index].next
            nodes[previous].next = next
            if next != Self.none { nodes[next].previous = previous }
            nodes[index].previous = Self.none
            nodes[index].next = oldHead
            nodes[oldHead].previous = index
            return next == Self.none ? previous : nil
        }
        if let newTail { tail = newTail }
        head = index
    }

    private mutating func linkAtHead(_ index: Int) {
        nodes[index].previous = Self.none
        nodes[index].next = head
        if head != Self.none { nodes[head].previous = index }
        head = index
        if tail == Self.none { tail = index }
    }

    private mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous, next = nodes[index].next
        if previous != Self.none { nodes[previous].next = next } else { head = next }
        if next != Self.none { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = Self.none
        nodes[index].next = Self.none
    }
}
