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
    /// memory hit without a callback queue completes before this method returns.
    @discardableResult
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageLoadingProgress) -> Void)? = nil, completed: @escaping ImageLoadCompletion
    ) -> WebImageOperation {
        do throws(WebImageError) {
            return loadImage(request(for: try validated(url), options: options, context: context),
                             progress: progress, completed: completed)
        } catch {
            context.deliver { completed(.failure(error), true) }
            return WebImageOperation()
        }
    }

    /// Loads the image `request` names with callbacks; see ``loadImage(with:options:context:progress:completed:)``.
    @discardableResult
    public func loadImage(
        _ request: ImageRequest, progress: (@Sendable (ImageLoadingProgress) -> Void)? = nil,
        completed: @escaping ImageLoadCompletion
    ) -> WebImageOperation {
        let operation = WebImageOperation()
        let deliver = request.context.deliver
        // A memory hit completes without a task, as SDWebImage's synchronous memory path.
        if let hit = memoryHit(for: request) {
            deliver { completed(.success(hit), true) }
            return operation
        }
        operation.run { [self] in
            let result: Result<ImageResult, WebImageError>
            do throws(WebImageError) {
                result = .success(try await loadAfterMemoryMiss(request) { event in
                    guard !operation.isCancelled else { return }
                    switch event {
                    case .progress(let value): if let progress { deliver { progress(value) } }
                    case .partialImage(let image):
                        deliver { completed(.success(ImageResult(image: image, data: nil, source: .network, url: request.url)), false) }
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
