import Foundation

/// The download stage of a load: the loader (which decodes), the transformer, then the store.
extension ImageManager {
    /// Loads, transforms and stores the image of `request`; `validators` make it a
    /// revalidation of the cached image.
    func download(_ request: ImageRequest, validators: HTTPValidators?, events: ImageLoadingEventHandler?) async throws
        -> ImageResult {
        let loaded = try await request.loader.requestImage(for: request.url, options: request.loaderOptions(validators), events: events)
        try Task.checkCancellation()
        let image = transformed(loaded.image, for: request)
        let validators = HTTPValidators(etag: loaded.response.etag, lastModified: loaded.response.lastModified)
        // As SDWebImage: a thumbnail's or a transformed image's bytes are not the original's,
        // so the original goes under its own key and the result carries no bytes.
        if request.derivesFromOriginal {
            // A thumbnail is no original: only the bytes go under the original's key.
            let originalImage = request.keys.thumbnail == request.keys.original ? loaded.image : nil
            try await store(image, data: nil, original: (originalImage, loaded.data), validators: validators, for: request)
            return ImageResult(image: image, data: nil, source: request.loadedSource, url: request.url)
        }
        try await store(image, data: loaded.data, original: nil, validators: validators, for: request)
        return ImageResult(image: image, data: loaded.data, source: request.loadedSource, url: request.url)
    }

    /// `image` through the request's transformer, when there is one and it applies (animations
    /// only with `transformAnimatedImage`). A result that says no format of its own (a custom
    /// transformer making a new image) keeps the source's, and an animation its loop count, as
    /// SDWebImage copies them onto transformed images: the cache serialiser and callers still
    /// know what it is.
    func transformed(_ image: Image, for request: ImageRequest) -> Image {
        guard let transformer = request.transformer, !image.isAnimated || request.policy.transformsAnimations,
              var result = transformer.transform(image, forKey: request.keys.image)
        else { return image }
        if result.format == .undefined {
            result.format = image.format
            if result.isAnimated { result.loopCount = image.loopCount }
        }
        return result
    }
}
