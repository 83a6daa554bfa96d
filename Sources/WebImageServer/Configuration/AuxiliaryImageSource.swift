import Foundation

/// Where an image the server itself needs comes from (the watermark, the fallback image): a
/// local file, a URL fetched like a source, or the bytes themselves. imgproxy's
/// `IMGPROXY_WATERMARK_PATH`/`_URL`/`_DATA` and `IMGPROXY_FALLBACK_IMAGE_*` name them.
public enum AuxiliaryImageSource: Sendable, Hashable {
    /// A file on this machine.
    case path(String)
    /// An `http(s)` URL, fetched through the source downloader and its address policy.
    case url(String)
    /// The encoded image, given base64-encoded in the setting.
    case data(Data)

    /// The bytes of `text`, standard or URL-safe base64 with or without padding.
    static func decodingBase64(_ text: String) throws(SettingValueError) -> AuxiliaryImageSource {
        var standard = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard), !data.isEmpty else {
            throw SettingValueError(reason: "is not base64-encoded image data")
        }
        return .data(data)
    }
}
