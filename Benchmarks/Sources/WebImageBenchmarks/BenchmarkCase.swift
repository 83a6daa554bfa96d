import Foundation

/// One measured case: `prepare` runs once, untimed, and returns what to time.
struct BenchmarkCase {
    let name: String
    let prepare: () throws -> TimedOperation

    /// A case whose operation needs no work between runs.
    init(name: String, prepare: @escaping () throws -> () throws -> Void) {
        self.name = name
        self.prepare = { TimedOperation(run: try prepare()) }
    }

    /// A case whose runs each need untimed preparation (a folder to fill again, say).
    init(name: String, prepareOperation: @escaping () throws -> TimedOperation) {
        self.name = name
        prepare = prepareOperation
    }
}

/// What a case times: `run`, with an untimed `setUp` before each run and an untimed
/// `tearDown` once after the last.
struct TimedOperation {
    var setUp: () throws -> Void = {}
    var run: () throws -> Void
    var tearDown: () -> Void = {}
}

/// Times operations: a warm-up run, then repeats until a time budget is spent, reporting
/// the median duration of one operation.
enum Stopwatch {
    /// Median seconds per run of `operation` over at least `minimumRuns` runs and about
    /// `budget` seconds (set-up included).
    static func median(budget: Double, minimumRuns: Int = 3, _ operation: TimedOperation) throws -> Double {
        try operation.setUp()
        try operation.run()
        let clock = ContinuousClock()
        var samples: [Double] = []
        let start = clock.now
        repeat {
            try operation.setUp()
            let t0 = clock.now
            try operation.run()
            samples.append(seconds(clock.now - t0))
        } while samples.count < minimumRuns || seconds(clock.now - start) < budget
        samples.sort()
        return samples[samples.count / 2]
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
