import Dispatch
import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// Work that runs behind the requests: in order, on a thread of its own at the lowest priority
/// (nice 19 on Linux), in the quiet moments between bursts of requests, with at most
/// ``limitBytes`` of it waiting.
///
/// The server writes a result it found in the shared cache to its local disk after answering.
/// Creating a file costs the kernel more CPU than that answer (on ext4, mostly finding a free
/// inode, and the directory and journal locks the answers' own lookups take), so done while
/// answers are being made, the writes slow them even at the lowest priority. Here a job waits
/// until no request has arrived for ``Timing/quietPeriod`` (the caller reports arrivals with
/// ``noteActivity()``), or until it has waited ``Timing/longestWait``, so that a steady load
/// still sees its write-backs done. A burst of them waits, up to the limit; past it, new work is
/// dropped (the caller counts it), because a write-back only saves a later read from the shared
/// cache. When the value goes away, the work queued by then runs without waiting.
final class BackgroundWork: Sendable {
    /// How long work waits for a quiet moment.
    struct Timing: Sendable {
        /// The time without a request after which waiting work runs.
        var quietPeriod: Duration = .milliseconds(50)
        /// The longest a job waits for a quiet moment before it runs anyway.
        var longestWait: Duration = .seconds(1)
    }

    /// The bytes the waiting work may hold (the results it will write) before more is dropped.
    let limitBytes: Int
    private let queue: Queue

    /// A thread named `name` that runs work as long as this value exists, then ends once the work
    /// queued by then has run.
    init(name: String, limitBytes: Int, timing: Timing = Timing()) {
        self.limitBytes = limitBytes
        queue = Queue(timing: timing)
        let queue = self.queue
        let thread = Thread { queue.runUntilClosed() }
        thread.name = name
        thread.start()
    }

    deinit {
        queue.close()
    }

    /// Queues `job`, which holds `bytes`; false, and `job` dropped, when the work waiting would
    /// then hold more than ``limitBytes``.
    @discardableResult
    func enqueue(holding bytes: Int, _ job: @escaping @Sendable () -> Void) -> Bool {
        queue.enqueue(Job(bytes: bytes, queued: .now, run: job), limitBytes: limitBytes)
    }

    /// Says that a request arrived now: waiting work holds off for another quiet period.
    func noteActivity() {
        queue.noteActivity()
    }

    private struct Job: Sendable {
        let bytes: Int
        let queued: ContinuousClock.Instant
        let run: @Sendable () -> Void
    }

    /// The jobs, shared by the value that queues them and the thread that runs them (which
    /// must not keep the value alive).
    private final class Queue: Sendable {
        struct State {
            var jobs: [Job] = []
            var next = 0
            var waitingBytes = 0
            var closed = false
            var lastActivity = ContinuousClock.Instant.now
        }

        private let timing: Timing
        private let state = Mutex(State())
        private let ready = DispatchSemaphore(value: 0)

        init(timing: Timing) {
            self.timing = timing
        }

        func noteActivity() {
            let now = ContinuousClock.Instant.now
            state.withLock { $0.lastActivity = now }
        }

        func enqueue(_ job: Job, limitBytes: Int) -> Bool {
            let queued = state.withLock { state in
                guard state.waitingBytes + job.bytes <= limitBytes else { return false }
                state.jobs.append(job)
                state.waitingBytes += job.bytes
                return true
            }
            if queued { ready.signal() }
            return queued
        }

        func close() {
            state.withLock { $0.closed = true }
            ready.signal()
        }

        /// The thread's body: lowers its own priority, then runs jobs until closed and drained.
        func runUntilClosed() {
            #if canImport(Glibc)
            // On Linux the nice value of PRIO_PROCESS 0 is the calling thread's alone.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
            while true {
                ready.wait()
                guard let job = take() else { return }
                waitForAQuietMoment(before: job)
                job.run()
                state.withLock { $0.waitingBytes -= job.bytes }
            }
        }

        /// Sleeps until no request has arrived for the quiet period, `job` has waited its
        /// longest, or the queue is closed.
        private func waitForAQuietMoment(before job: Job) {
            while true {
                let (lastActivity, closed) = state.withLock { ($0.lastActivity, $0.closed) }
                let runAt = min(lastActivity + timing.quietPeriod, job.queued + timing.longestWait)
                let now = ContinuousClock.Instant.now
                guard !closed, now < runAt else { return }
                Thread.sleep(forTimeInterval: (runAt - now) / .seconds(1))
            }
        }

        /// The next job; nil once the queue is closed and empty.
        private func take() -> Job? {
            state.withLock { state in
                guard state.next < state.jobs.count else { return nil }
                let job = state.jobs[state.next]
                state.next += 1
                if state.next == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.next = 0
                }
                return job
            }
        }
    }
}
