import Locking

/// The thread-safe list behind ``ImageCoders``, ``ImageLoaders`` and ``ImageCachesManager``,
/// so the three follow one ordering rule, SDWebImage's: the element added last is asked first.
///
/// A registry made from a list takes it as added in order, so the list's last element is asked
/// first. Reads copy the list under the lock, so a caller walks a snapshot while others add.
final class Registry<Element: Sendable>: Sendable {
    /// The elements in the order they were added.
    private let elements: Mutex<[Element]>

    /// A registry of `elements`, as if each was added in turn: the last is asked first.
    init(_ elements: [Element]) {
        self.elements = Mutex(elements)
    }

    /// Adds `element`; it is asked before every element added earlier.
    func add(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// Removes every element of type `type`.
    func remove<T>(_ type: T.Type) {
        elements.withLock { $0.removeAll { $0 is T } }
    }

    /// The elements in the order they are asked: the most recently added first.
    var all: [Element] {
        elements.withLock { Array($0.reversed()) }
    }
}
