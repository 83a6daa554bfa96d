import Locking
import Metrics
import Prometheus
@testable import WebImageServer
import XCTest

/// ``CounterTable`` counting into a real Prometheus registry.
final class CounterTableTests: XCTestCase {
    func testEachValueGetsOneCounterMadeOnFirstUse() {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        let made = Mutex<[Int]>([])
        let table = CounterTable<Int> { status in
            made.withLock { $0.append(status) }
            return Counter(label: "test_requests_total", dimensions: [("status", String(status))], factory: factory)
        }
        for status in [200, 200, 404, 200] { table.increment(status) }
        XCTAssertEqual(made.withLock { $0 }, [200, 404])
        XCTAssertTrue(table.counter(200) === table.counter(200))
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        XCTAssertTrue(text.contains(#"test_requests_total{status="200"} 3"#), text)
        XCTAssertTrue(text.contains(#"test_requests_total{status="404"} 1"#), text)
        XCTAssertFalse(text.contains(#"status="500""#), "a value never counted has a sample: \(text)")
    }
}
