import Foundation

/// An ICC colour profile: the bytes a file embeds (JPEG `APP2`, PNG `iCCP`, WebP `ICCP`, HEIF
/// `colr`) to say what colours its pixel values mean.
///
/// Decoding converts pixels to sRGB by default, and the image then carries no profile; with
/// ``ColorManagement/preserve`` the pixels stay as stored and ``Image/colorProfile`` carries
/// this value, which encoders embed again. Making one checks the ICC header and tag table and
/// reads the description, so a damaged profile fails here, with a ``ColorProfileError``,
/// rather than in a colour engine.
public struct ColorProfile: Sendable, Hashable {
    /// The largest profile accepted: what a JPEG's 255 `APP2` segments hold (about 16 MB).
    /// Real profiles are a few hundred bytes (matrix/TRC) to a few megabytes (large LUTs).
    public static let maximumByteCount = 255 * 65_519

    /// The profile's bytes, exactly as embedded.
    public let data: Data
    /// The colour space of the pixels the profile describes (its header's data colour space).
    public let colorSpace: ColorSpace
    /// The profile's name from its `desc` tag (ICC v2 text or v4 `mluc`, English preferred),
    /// such as `"Display P3"`; nil when the profile has none.
    public let description: String?

    /// Reads `data` as an ICC profile; throws ``ColorProfileError/malformed(_:)`` when the
    /// header or tag table is damaged and ``ColorProfileError/tooLarge(_:)`` past
    /// ``maximumByteCount``.
    public init(iccData data: Data) throws(ColorProfileError) {
        guard data.count <= Self.maximumByteCount else { throw .tooLarge(data.count) }
        let contents = try ICCProfileContents(data)
        self.data = data
        self.colorSpace = contents.colorSpace
        self.description = contents.description
    }

    /// Two profiles are equal when their bytes are.
    public static func == (a: ColorProfile, b: ColorProfile) -> Bool {
        a.data == b.data
    }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
    }
}
