import Foundation

/// A pool of threads of its own for CPU-heavy image work (decoding, resampling, encoding), as a
/// task executor: work given it as a task's executor preference runs on these threads instead
/// of Swift's cooperative pool, which has one thread per core and which every other task —
/// a server's request handling, its health check — needs too. An image that takes seconds to
/// decode then holds one of these threads, never the pool the rest of the process runs on.
///
/// Give it to an ``ImageManager`` (its loads' stages, downloads' decodes included, run here) or
/// use it with `withTaskExecutorPreference(_:operation:)`. The threads live until ``shutdown()``
/// (a server assembled in a process that makes several calls it when it stops), else as long as
/// the process: make one pool and share it.
public final class CodecExecutor: TaskExecutor, @unchecked Sendable {
    /// The jobs waiting for a thread, oldest first, and the index of the oldest; guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var head = 0
    /// Whether ``shutdown()`` was called: threads end once no job waits.
    private var isShutDown = false
    /// The threads running jobs now: all of them until shutdown, then fewer as they end.
    private var liveThreads = 0
    private let condition = NSCondition()
    /// How many threads run the jobs.
    public let threadCount: Int
    /// What the threads are named after.
    private let name: String

    /// A pool of `threads` threads (at least one), named `name` and their number in debuggers
    /// and profiles. Linux keeps 15 bytes of a thread's name: a longer `name` is cut so that
    /// the number stays, as a thread the system does not name keeps its creator's name.
    public init(threads: Int, name: String = "WebImage.codec") {
        threadCount = max(1, threads)
        self.name = name
        liveThreads = threadCount
        for index in 0..<threadCount {
            // The threads keep the pool until it is shut down, as documented.
            startThread(suffix: "-\(index)")
        }
    }

    /// Starts a thread running jobs, named `name` cut to leave room for `suffix`, then `suffix`.
    private func startThread(suffix: String) {
        let threadName = String(decoding: name.utf8.prefix(15 - suffix.utf8.count), as: UTF8.self) + suffix
        // Named by the thread itself, in /proc too: Foundation's `Thread.name` names the system
        // thread only once the Thread knows its pthread, which its creator may not have told it yet.
        Thread {
            Thread.current.name = threadName
            try? Data(threadName.utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            self.runJobs()
        }.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // Past shutdown a job still runs: on a thread still draining, else on one started for
        // the jobs that come late, which ends once they have run.
        let needsThread = isShutDown && liveThreads == 0
        if needsThread { liveThreads += 1 }
        condition.signal()
        condition.unlock()
        if needsThread { startThread(suffix: "-late") }
    }

    /// Lets the threads end once the jobs already given have run; a job given later runs on
    /// one thread started for it, which ends once no job waits.
    public func shutdown() {
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
    }

    /// One thread's loop: takes the oldest job and runs it, until the pool is shut down and no
    /// job waits.
    private func runJobs() {
        while true {
            condition.lock()
            while head == jobs.count, !isShutDown { condition.wait() }
            if head == jobs.count {
                liveThreads -= 1
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count || head > 1024 {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
