#if canImport(Glibc)
import Glibc
#endif

/// The CPU time the calling thread has used, for tests that bound how much work a synchronous
/// call does ("refused quickly"): unlike the wall clock, it does not grow while other processes
/// have the cores, so such a bound holds on a loaded CI machine.
public enum ThreadCPUTime {
    /// The calling thread's CPU time so far (`CLOCK_THREAD_CPUTIME_ID`).
    public static var now: Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// The CPU time the calling thread spends in `work`, which runs on it synchronously.
    public static func spent(in work: () throws -> Void) rethrows -> Duration {
        let start = now
        try work()
        return now - start
    }
}
