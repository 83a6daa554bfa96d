import Foundation

/// A finished load of bytes that were not decoded: what ``ImageLoader/requestData(for:options:events:)``
/// returns (Nuke's `data(for:)` answer), for a caller that decodes later or elsewhere.
public struct ImageDataLoadResult: Sendable {
    /// The bytes: as received, or what the decryptor made of them.
    public var data: Data
    /// Status, headers (ETag, Last-Modified) and final URL.
    public var response: ImageLoadResponse

    /// A result from its parts.
    public init(data: Data, response: ImageLoadResponse) {
        self.data = data
        self.response = response
    }
}
