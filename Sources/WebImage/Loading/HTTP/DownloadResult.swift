/// What one caller of a shared download receives: the bytes and the response, and the image
/// decoded as the caller asked, or nil for a caller of the bytes alone.
struct DownloadResult: Sendable {
    /// The image, for a caller that asked for one.
    var image: Image?
    /// The bytes (as the decryptor left them) and the response.
    var body: ImageDataLoadResult

    /// The result of a caller that asked for an image: `result`'s image with its bytes.
    static func imageResult(_ result: Result<DownloadResult, WebImageError>) -> Result<ImageLoadResult, WebImageError> {
        result.flatMap { downloaded in
            // A decoding caller always receives an image; one without is an operation gone wrong.
            guard let image = downloaded.image else { return .failure(.invalidDownloadOperation) }
            return .success(ImageLoadResult(image: image, data: downloaded.body.data, response: downloaded.body.response))
        }
    }
}
