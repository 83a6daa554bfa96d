import Foundation

/// A finished load: the decoded image, the bytes it came from, and what the server said.
public struct ImageLoadResult: Sendable {
    /// The image, decoded with the caller's ``ImageLoaderOptions/decodeOptions``.
    public var image: Image
    /// The bytes the image was decoded from: as received, or what the decryptor made of them.
    /// What the disk cache stores, so a later disk hit decodes without the decryptor.
    public var data: Data
    /// Status, headers (ETag, Last-Modified) and final URL.
    public var response: ImageLoadResponse

    /// A result from its parts.
    public init(image: Image, data: Data, response: ImageLoadResponse) {
        self.image = image
        self.data = data
        self.response = response
    }
}
