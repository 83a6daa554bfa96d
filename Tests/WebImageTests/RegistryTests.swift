@testable import WebImage
import XCTest

/// The list behind the coder, loader and cache registries: the element added last is asked
/// first, removal goes by type, and adds from many tasks at once are all kept.
final class RegistryTests: XCTestCase {
    private protocol Named: Sendable { var name: String { get } }
    private struct Letter: Named { let name: String }
    private struct Digit: Named { let name: String }

    func testTheLastAddedIsAskedFirstAndRemovalGoesByType() {
        let registry = Registry<any Named>([Letter(name: "a"), Digit(name: "1")])
        registry.add(Letter(name: "b"))
        XCTAssertEqual(registry.all.map(\.name), ["b", "1", "a"], "a list given at creation counts as added in order")
        registry.remove(Letter.self)
        XCTAssertEqual(registry.all.map(\.name), ["1"])
    }

    func testConcurrentAddsAreAllKeptInTheirOrder() async {
        let registry = Registry<any Named>([])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        registry.add(Letter(name: "\(task)-\(i)"))
                        _ = registry.all.count
                    }
                }
            }
        }
        let names = registry.all.map(\.name)
        XCTAssertEqual(names.count, 1_600)
        for task in 0..<8 {
            let own = names.filter { $0.hasPrefix("\(task)-") }
            XCTAssertEqual(own, (0..<200).reversed().map { "\(task)-\($0)" }, "task \(task)'s elements, the last added first")
        }
    }
}
