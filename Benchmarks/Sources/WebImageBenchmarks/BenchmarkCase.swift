import Foundation

/// One measured operation: `prepare` runs once, untimed, and returns the operation to time.
struct BenchmarkCase {
    let name: String
    let prepare: () throws -> () throws -> Void
}

/// Times operations: a warm-up run, then repeats until a time budget is spent, reporting
/// the median duration of one operation.
enum Stopwatch {
    /// Median seconds per operation over at least `minimumRuns` runs and about `budget` seconds.
    static func median(budget: Double, minimumRuns: Int = 3, _ operation: () throws -> Void) rethrows -> Double {
        try operation()
        let clock = ContinuousClock()
        var samples: [Double] = []
        let start = clock.now
        repeat {
            let t0 = clock.now
            try operation()
            samples.append(seconds(clock.now - t0))
        } while samples.count < minimumRuns || seconds(clock.now - start) < budget
        samples.sort()
        return samples[samples.count / 2]
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
