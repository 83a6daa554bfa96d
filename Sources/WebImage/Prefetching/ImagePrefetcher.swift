import Foundation

/// Loads images into the cache ahead of need (SDWebImage's `SDWebImagePrefetcher`), a few at a
/// time and at low priority by default, so that showing them later is a cache hit.
///
/// The limit on concurrent loads holds across all prefetches of one prefetcher.
public final class ImagePrefetcher: Sendable {
    /// The manager that loads and caches the images.
    public let manager: ImageManager
    /// How many images load at once, over all prefetches of this prefetcher (SDWebImage: 3).
    public let maxConcurrentPrefetchCount: Int
    /// Options for every load; `lowPriority` by default, so that prefetching yields to loads
    /// that something is waiting for.
    public let options: WebImageOptions
    /// The context of every load.
    public let context: ImageContext
    private let limiter: AsyncLimiter

    /// A prefetcher over `manager`.
    public init(manager: ImageManager = .shared, maxConcurrentPrefetchCount: Int = 3,
                options: WebImageOptions = .lowPriority, context: ImageContext = ImageContext()) {
        self.manager = manager
        self.maxConcurrentPrefetchCount = max(1, maxConcurrentPrefetchCount)
        self.options = options
        self.context = context
        limiter = AsyncLimiter(limit: self.maxConcurrentPrefetchCount)
    }

    /// Prefetches `urls`, calling `progress` after each URL ends and `completed` once after all
    /// have ended. After ``WebImageOperation/cancel()`` neither is called again. An empty
    /// list completes at once with no URLs finished or skipped.
    @discardableResult
    public func prefetch(
        _ urls: [URL], progress: (@Sendable (ImagePrefetcher.Progress) -> Void)? = nil,
        completed: (@Sendable (ImagePrefetcher.Progress) -> Void)? = nil
    ) -> WebImageOperation {
        let token = WebImageOperation()
        token.run { [self] in
            let final = await run(urls) { step in
                if !token.isCancelled { progress?(step) }
            }
            if !token.isCancelled { completed?(final) }
        }
        return token
    }

    /// Prefetches `urls`, yielding the progress after each URL ends; the sequence ends after
    /// the last. Ending the iteration early cancels the prefetch.
    public func progress(for urls: [URL]) -> AsyncStream<ImagePrefetcher.Progress> {
        AsyncStream { continuation in
            let task = Task {
                _ = await run(urls) { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Loads `urls` through the limiter, reporting each step; returns the final counts.
    private func run(_ urls: [URL], step: @Sendable (ImagePrefetcher.Progress) -> Void) async -> ImagePrefetcher.Progress {
        var counts = ImagePrefetcher.Progress(finished: 0, skipped: 0, total: urls.count)
        await withTaskGroup(of: Bool.self) { group in
            for url in urls {
                group.addTask { [self] in
                    do {
                        _ = try await limiter.run { try await manager.image(for: url, options: options, context: context) }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            for await succeeded in group {
                guard !Task.isCancelled else { continue }
                counts.finished += 1
                if !succeeded { counts.skipped += 1 }
                step(counts)
            }
        }
        return counts
    }
}
