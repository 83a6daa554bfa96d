import Foundation

/// What a callback-style load reports: a result, and whether it is the last one. Partial
/// images (`progressiveLoad`) and the cached image under `refreshCached` come with `false`.
public typealias ImageLoadCompletion = @Sendable (Result<ImageResult, WebImageError>, _ finished: Bool) -> Void

extension ImageManager {
    /// Loads the image for `url` with callbacks (SDWebImage's `loadImageWithURL:options:context:progress:completed:`).
    ///
    /// `completed` runs exactly once with `finished == true`; before that it may run with
    /// partial images or, under `refreshCached`, the cached image. Callbacks run on the
    /// context's ``ImageContext/Settings/callbackQueue`` when set, otherwise on the loading task; a
    /// memory hit without a callback queue completes before this method returns, and so does a
    /// disk hit with `queryDiskDataSync` from a cache that reads synchronously
    /// (``ImageCaching/imageFromDisk(forKey:options:)``, which ``ImageCache`` does).
    @discardableResult
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageLoadingProgress) -> Void)? = nil, completed: @escaping ImageLoadCompletion
    ) -> WebImageOperation {
        do throws(WebImageError) {
            let url = try validated(url)
            // An options processor may change what the load is: it runs first, in `request(for:)`.
            guard optionsProcessor == nil else {
                return loadImage(request(for: url, options: options, context: context), progress: progress, completed: completed)
            }
            // A memory hit completes without a request value or a task, as SDWebImage's synchronous memory path.
            switch start(url, options: options, context: context) {
            case .hit(let hit):
                context.complete(completed, with: .success(hit), finished: true)
                return .finished
            case .miss(let request):
                return loadAfterMemoryMiss(request, progress: progress, completed: completed)
            }
        } catch {
            context.complete(completed, with: .failure(error), finished: true)
            return .finished
        }
    }

    /// Loads the image `request` names with callbacks; see ``loadImage(with:options:context:progress:completed:)``.
    @discardableResult
    public func loadImage(
        _ request: ImageRequest, progress: (@Sendable (ImageLoadingProgress) -> Void)? = nil,
        completed: @escaping ImageLoadCompletion
    ) -> WebImageOperation {
        if request.hasURL,
           let hit = memoryHit(for: request.url, key: request.keys.image, policy: request.policy, context: request.context) {
            request.context.complete(completed, with: .success(hit), finished: true)
            return .finished
        }
        return loadAfterMemoryMiss(request, progress: progress, completed: completed)
    }

    /// The callback-style flow after the memory cache missed: the load runs in a task the
    /// returned operation cancels.
    private func loadAfterMemoryMiss(
        _ request: ImageRequest, progress: (@Sendable (ImageLoadingProgress) -> Void)?, completed: @escaping ImageLoadCompletion
    ) -> WebImageOperation {
        let context = request.context
        // With `queryDiskDataSync`, a disk hit completes before this returns, as SDWebImage's.
        if let hit = diskHitNow(for: request) {
            context.complete(completed, with: .success(hit), finished: true)
            return .finished
        }
        let operation = WebImageOperation()
        // Known to the manager before this returns, as SDWebImage's operation is: `isRunning`
        // says so and `cancelAll()` reaches it, even before its task starts.
        callbackLoads.add(operation)
        operation.run { [self] in
            defer { callbackLoads.remove(operation) }
            let result: Result<ImageResult, WebImageError>
            do throws(WebImageError) {
                result = .success(try await loadAfterMemoryMiss(request) { event in
                    guard !operation.isCancelled else { return }
                    switch event {
                    case .progress(let value): if let progress { context.deliver { progress(value) } }
                    case .partialImage(let image):
                        let partial = ImageResult(image: image, data: nil, source: .network, url: request.url)
                        context.complete(completed, with: .success(partial), finished: false)
                    case .cachedImage(let cached): context.complete(completed, with: .success(cached), finished: false)
                    case .finished: break
                    }
                })
            } catch {
                result = .failure(error)
            }
            // Checked where the completion runs: a cancel that lands meanwhile still wins.
            context.deliver { completed(operation.isCancelled ? .failure(.cancelled) : result, true) }
        }
        return operation
    }
}
