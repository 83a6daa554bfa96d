import Foundation

extension ImageManager {
    /// How a load by URL begins: answered from memory, or the request for the rest.
    enum Start {
        /// The memory cache answered.
        case hit(ImageResult)
        /// The memory cache did not: the load goes on with this request.
        case miss(ImageRequest)
    }

    /// A load of `url` with `options` and `context` (no options processor applied) as far as
    /// a memory hit needs: its policy and its image's key, not a request value, since most
    /// loads end here.
    @inline(__always)
    func start(_ url: URL, options: WebImageOptions, context: ImageContext) -> Start {
        // Read once: Foundation builds the string anew on every call; a miss passes it on.
        let urlString = url.absoluteString
        let policy = LoadPolicy(options: options, context: context.box.policy)
        if !urlString.isEmpty,
           let hit = memoryHit(for: url, key: context.box.imageKey(for: url, urlString: urlString, defaultTransformerKey: transformerKey),
                               policy: policy, context: context) {
            return .hit(hit)
        }
        return .miss(ImageRequest(url: url, urlString: urlString, options: options, context: context, policy: policy, manager: self))
    }

    /// The whole answer to a load of `url` whose image is cached under `key`, when the memory
    /// cache (the context's, else the manager's) has it, the `policy` lets a memory hit answer
    /// (no disk bytes wanted, no revalidation) and the URL may be loaded; nil otherwise. The
    /// one memory-hit path of every entry point, answered under the cache's lock from the key
    /// alone.
    @inline(__always)
    func memoryHit(for url: URL, key: String, policy: LoadPolicy, context: ImageContext) -> ImageResult? {
        guard policy.answersByMemoryHit, !isRefused(url, policy: policy),
              var image = context.box.imageFromMemory(forKey: key, defaultCache: imageCache)
        else { return nil }
        if policy.firstFrameOnly { image = image.firstFrame }
        return ImageResult(image: image, data: nil, source: .memory, url: url)
    }

    /// Whether a load of `url` under `policy` is refused for the URL's place on the failed-URL list.
    func isRefused(_ url: URL, policy: LoadPolicy) -> Bool {
        !policy.retriesFailedURLs && failedURLs.contains(url)
    }
}
