import Dispatch
import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// Work that runs behind the requests: in order, on a thread of its own at the lowest priority
/// (nice 19 on Linux), with at most ``limitBytes`` of it waiting.
///
/// The server writes a result it found in the shared cache to its local disk after answering.
/// Creating a file costs the kernel more CPU than that answer (on ext4, mostly finding a free
/// inode), so at the requests' priority, on a server whose cores are busy answering, the writes
/// would take a core from the answers. Here they yield to every request and catch up when the
/// cores are free. A burst of them waits, up to the limit; past it, new work is dropped (the
/// caller counts it), because a write-back only saves a later read from the shared cache.
final class BackgroundWork: Sendable {
    /// The bytes the waiting work may hold (the results it will write) before more is dropped.
    let limitBytes: Int
    private let queue: Queue

    /// A thread named `name` that runs work as long as this value exists, then ends once the work
    /// queued by then has run.
    init(name: String, limitBytes: Int) {
        self.limitBytes = limitBytes
        queue = Queue()
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
        queue.enqueue(Job(bytes: bytes, run: job), limitBytes: limitBytes)
    }

    private struct Job: Sendable {
        let bytes: Int
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
        }

        private let state = Mutex(State())
        private let ready = DispatchSemaphore(value: 0)

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
                job.run()
                state.withLock { $0.waitingBytes -= job.bytes }
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
