import Foundation

/// Decodes loaded bytes for every loader, so that all of them report a failed decode the same way.
enum LoadedDataDecoder {
    /// Decodes `data` with `coders`; a failure is ``WebImageError/badImageData(_:)``.
    static func decode(_ data: Data, coders: ImageCoders, options: ImageDecodeOptions) -> Result<Image, WebImageError> {
        do {
            return .success(try coders.decode(data, options: options))
        } catch {
            return .failure(.badImageData(error))
        }
    }

    /// Runs the decryptor, if any; a thrown error is ``WebImageError/badImageData(_:)``.
    static func decrypt(_ data: Data, with decryptor: ImageDataDecryptor?, response: ImageLoadResponse)
        -> Result<Data, WebImageError>
    {
        guard let decryptor else { return .success(data) }
        do {
            return .success(try decryptor(data, response))
        } catch {
            return .failure(.badImageData(.corrupt(.undefined, "the decryptor failed: \(error)")))
        }
    }

    /// The bytes stage of a loader that has all bytes at once (files, `data:` URLs): progress
    /// and decryption.
    static func bytes(data: Data, response: ImageLoadResponse, options: ImageLoaderOptions,
                      events: ImageLoadingEventHandler?) throws(WebImageError) -> ImageDataLoadResult {
        if Task.isCancelled { throw .cancelled }
        events?(.progress(ImageLoadingProgress(receivedBytes: data.count, expectedBytes: data.count)))
        return ImageDataLoadResult(data: try decrypt(data, with: options.decryptor, response: response).get(), response: response)
    }

    /// The whole pipeline of a loader that has all bytes at once (files, `data:` URLs):
    /// progress, decryption, decoding.
    static func result(data: Data, response: ImageLoadResponse, options: ImageLoaderOptions,
                       events: ImageLoadingEventHandler?) throws(WebImageError) -> ImageLoadResult {
        let loaded = try bytes(data: data, response: response, options: options, events: events)
        let image = try decode(loaded.data, coders: options.coders, options: options.decodeOptions).get()
        return ImageLoadResult(image: image, data: loaded.data, response: response)
    }
}
