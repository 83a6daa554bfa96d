import Foundation

/// What a callback-style load reports: a result, and whether it is the last one. Partial
/// images (`progressiveLoad`) and the cached image under `refreshCached` come with `false`.
public typealias ImageLoadCompletion = @Sendable (Result<ImageResult, WebImageError>, _ finished: Bool) -> Void

extension ImageManager {
    /// Loads the image for `url` with callbacks (SDWebImage's `loadImageWithURL:options:context:progress:completed:`).
    ///
    /// `completed` runs exactly once with `finished == true`; before that it may run with
    /// partial images or, under `refreshCached`, the cached image. Callbacks run on the
    /// context's ``ImageContext/callbackQueue`` when set, otherwise on the loading task; a
    /// memory hit without a callback queue completes before this method returns.
    @discardableResult
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageLoadingProgress) -> Void)? = nil, completed: @escaping ImageLoadCompletion
    ) -> ImageLoadOperation {
        let operation = WebImageOperation()
        let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void = { call in
            if let queue = context.callbackQueue { queue.async(execute: call) } else { call() }
        }
        guard let url else {
            deliver { completed(.failure(.invalidURL("no URL")), true) }
            return operation
        }
        // A memory hit completes without a task, as SDWebImage's synchronous memory path.
        if let hit = immediateMemoryResult(for: url, options: options, context: context) {
            deliver { completed(.success(hit), true) }
            return operation
        }
        operation.run { [self] in
            let result: Result<ImageResult, WebImageError>
            do throws(WebImageError) {
                result = .success(try await load(url, options: options, context: context) { event in
                    guard !operation.isCancelled else { return }
                    switch event {
                    case .progress(let value): if let progress { deliver { progress(value) } }
                    case .partialImage(let image):
                        deliver { completed(.success(ImageResult(image: image, data: nil, source: .network, url: url)), false) }
                    case .cachedImage(let cached): deliver { completed(.success(cached), false) }
                    case .finished: break
                    }
                })
            } catch {
                result = .failure(error)
            }
            // Checked where the completion runs: a cancel that lands meanwhile still wins.
            deliver { completed(operation.isCancelled ? .failure(.cancelled) : result, true) }
        }
        return operation
    }
}
