import Foundation
import Locking

/// A thread-safe, synchronous LRU cache with cost, count and age limits: SDMemoryCache's role,
/// without `NSCache`.
///
/// Every operation is O(1) and answers on the caller's thread under a `Mutex`, so a memory
/// hit never waits for an actor hop. When a limit is passed, the least recently used entries
/// go first. An entry whose cost alone exceeds ``costLimit`` is not kept. Values dropped by
/// the cache are released after the lock is let go.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What the mutex guards: the entries and the limits.
    private struct CacheState {
        var storage = LRUStorage<Key, Value>()
        var costLimit: Int
        var countLimit: Int
        var ageLimit: TimeInterval
    }

    private let state: Mutex<CacheState>
    private let clock: @Sendable () -> ContinuousClock.Instant

    /// The default ``costLimit``: an eighth of physical memory.
    public static var defaultCostLimit: Int {
        Int(clamping: ProcessInfo.processInfo.physicalMemory / 8)
    }

    /// A cache with the given limits.
    /// - Parameters:
    ///   - costLimit: the most total cost kept (0 = unlimited); see ``costLimit``.
    ///   - countLimit: the most entries kept (0 = unlimited).
    ///   - ageLimit: seconds an entry lives after it is stored (0 = forever).
    ///   - clock: the time source for ``ageLimit``; tests inject one.
    public init(
        costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = 0, ageLimit: TimeInterval = 0,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        state = Mutex(CacheState(costLimit: max(0, costLimit), countLimit: max(0, countLimit), ageLimit: max(0, ageLimit)))
        self.clock = clock
    }

    /// The most total cost the cache keeps (0 = unlimited). For images the cost is
    /// ``Image/memoryCost``, the decoded bytes. Lowering it evicts at once.
    public var costLimit: Int {
        get { state.withLock { $0.costLimit } }
        set { _ = state.withLock { $0.costLimit = max(0, newValue); return Self.trim(&$0) } }
    }

    /// The most entries the cache keeps (0 = unlimited). Lowering it evicts at once.
    public var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set { _ = state.withLock { $0.countLimit = max(0, newValue); return Self.trim(&$0) } }
    }

    /// Seconds an entry stays valid after it is stored (0 = forever). An expired entry is
    /// never returned; ``removeExpired()`` frees the memory of those not asked for again.
    public var ageLimit: TimeInterval {
        get { state.withLock { $0.ageLimit } }
        set { state.withLock { $0.ageLimit = max(0, newValue) } }
    }

    /// The number of entries held (expired ones included until they are looked at or purged).
    public var count: Int { state.withLock { $0.storage.count } }

    /// The sum of the costs of the entries held.
    public var totalCost: Int { state.withLock { $0.storage.totalCost } }

    /// The value for `key`, or nil; a hit becomes the most recently used entry.
    public func value(forKey key: Key) -> Value? {
        // The tuple carries an expired value out so it is released after the lock.
        state.withLock { state -> (hit: Value?, expired: Value?) in
            guard let slot = state.storage.slot(forKey: key) else { return (nil, nil) }
            // The clock is read only when entries can expire: hits stay a lookup.
            if state.ageLimit > 0, Self.isExpired(state.storage.storedInstant(at: slot), now: clock(), ageLimit: state.ageLimit) {
                return (nil, state.storage.remove(at: slot))
            }
            return (state.storage.touch(slot), nil)
        }.hit
    }

    /// Stores `value` under `key` as the most recently used entry, then evicts least recently
    /// used entries until the limits hold. If `cost` alone exceeds ``costLimit`` the value is
    /// not kept, and any older value under `key` is removed.
    public func setValue(_ value: Value, forKey key: Key, cost: Int = 0) {
        let now = clock()
        let cost = max(0, cost)
        // The released values are dropped after `withLock` returns, outside the lock.
        _ = state.withLock { state -> [Value] in
            if state.costLimit > 0 && cost > state.costLimit {
                return state.storage.remove(key).map { [$0] } ?? []
            }
            let replaced = state.storage.set(value, forKey: key, cost: cost, at: now)
            return Self.trim(&state) + (replaced.map { [$0] } ?? [])
        }
    }

    /// Removes the value for `key` and returns it.
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        state.withLock { $0.storage.remove(key) }
    }

    /// Whether a live (unexpired) value is held for `key`; does not change the LRU order.
    public func contains(_ key: Key) -> Bool {
        state.withLock { state in
            guard let slot = state.storage.slot(forKey: key) else { return false }
            // As for hits, the clock is read only when entries can expire.
            return state.ageLimit == 0 || !Self.isExpired(state.storage.storedInstant(at: slot), now: clock(), ageLimit: state.ageLimit)
        }
    }

    /// Removes every entry.
    public func removeAll() {
        _ = state.withLock { $0.storage.removeAll() }
    }

    /// Removes the entries older than ``ageLimit``. O(n); the cache calls it on no timer of its own.
    public func removeExpired() {
        let now = clock()
        _ = state.withLock { state in
            let ageLimit = state.ageLimit
            return state.storage.removeAll { Self.isExpired($0, now: now, ageLimit: ageLimit) }
        }
    }

    /// Evicts least recently used entries until the cost and count limits hold.
    private static func trim(_ state: inout CacheState) -> [Value] {
        var evicted: [Value] = []
        while (state.costLimit > 0 && state.storage.totalCost > state.costLimit)
            || (state.countLimit > 0 && state.storage.count > state.countLimit),
            let value = state.storage.removeLeastRecentlyUsed()
        {
            evicted.append(value)
        }
        return evicted
    }

    private static func isExpired(_ stored: ContinuousClock.Instant, now: ContinuousClock.Instant, ageLimit: TimeInterval) -> Bool {
        ageLimit > 0 && now - stored >= .seconds(ageLimit)
    }
}
