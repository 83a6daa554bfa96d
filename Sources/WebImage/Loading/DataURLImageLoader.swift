import Foundation

/// Loads `data:` URLs (RFC 2397): `data:[<media type>][;base64],<data>`, base64 or
/// percent-encoded.
///
/// A malformed URL fails with ``WebImageError/invalidURL(_:)``; bytes that are no image with
/// ``WebImageError/badImageData(_:)``. The media type is reported as `Content-Type` but, as
/// everywhere in WebImage, the format is read from the bytes.
public struct DataURLImageLoader: ImageLoader {
    /// A `data:` URL loader.
    public init() {}

    public func canRequest(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "data"
    }

    public func requestImage(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageLoadResult {
        let (data, response) = try Self.read(url)
        return try LoadedDataDecoder.result(data: data, response: response, options: options, events: events)
    }

    public func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult {
        let (data, response) = try Self.read(url)
        return try LoadedDataDecoder.bytes(data: data, response: response, options: options, events: events)
    }

    /// The URL's bytes and a response saying their length and media type.
    private static func read(_ url: URL) throws(WebImageError) -> (Data, ImageLoadResponse) {
        let (mediaType, data) = try parse(url.absoluteString)
        var headers = ["content-length": String(data.count)]
        if !mediaType.isEmpty { headers["content-type"] = mediaType }
        return (data, ImageLoadResponse(url: url, headers: headers))
    }

    /// Splits `text` into its media type (with parameters, `""` when absent) and its bytes.
    static func parse(_ text: String) throws(WebImageError) -> (mediaType: String, data: Data) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 5, String(decoding: bytes[0..<5], as: UTF8.self).lowercased() == "data:" else {
            throw .invalidURL("not a data: URL")
        }
        guard let comma = bytes[5...].firstIndex(of: UInt8(ascii: ",")) else {
            throw .invalidURL("data: URL without a comma before its data")
        }
        var parameters = String(decoding: bytes[5..<comma], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
        let isBase64 = parameters.count > 1 && parameters.last?.trimmingCharacters(in: .whitespaces).lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let mediaType = parameters.joined(separator: ";").trimmingCharacters(in: .whitespaces)
        guard let payload = percentDecoded(bytes[(comma + 1)...]) else {
            throw .invalidURL("data: URL with a malformed percent escape")
        }
        guard isBase64 else { return (mediaType, Data(payload)) }
        var base64 = String(decoding: payload.filter { !Self.isWhitespace($0) }, as: UTF8.self)
        if base64.count % 4 != 0 { base64 += String(repeating: "=", count: 4 - base64.count % 4) }
        guard let data = Data(base64Encoded: base64) else {
            throw .invalidURL("data: URL with invalid base64 data")
        }
        return (mediaType, data)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The bytes of `encoded` with `%XX` escapes replaced; `nil` for a malformed escape.
    private static func percentDecoded(_ encoded: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < encoded.endIndex,
                      let high = hexValue(encoded[index + 1]), let low = hexValue(encoded[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
