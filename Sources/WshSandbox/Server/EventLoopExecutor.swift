import NIOCore
import NIOPosix

/// Runs Swift tasks on a NIO event loop, so a request's handler runs on the
/// thread that reads and writes its connection instead of hopping to the
/// cooperative pool and back for every request.
final class EventLoopExecutor: TaskExecutor, @unchecked Sendable {
    /// The one loop, and its executor, that every sandbox in the process uses.
    static let shared = EventLoopExecutor(loop: MultiThreadedEventLoopGroup(numberOfThreads: 1).next())

    let loop: any EventLoop

    private init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
