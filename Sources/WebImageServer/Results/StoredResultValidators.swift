import Foundation

/// What a result's disk copy keeps beside its bytes, in the entry's extended data: when it was
/// made (its `Last-Modified`) and its entity tag, as the text `<seconds since 1970> <tag>`, and,
/// when its origin said how long caches may keep it, a second line with that
/// (``ResultLifetime/storedText``). A copy stored with the time alone (older versions) has no
/// tag, and gets one from its bytes.
struct StoredResultValidators: Equatable {
    /// When the result was made, in whole seconds since 1970.
    var created: Date
    /// The result's quoted entity tag, when it was stored.
    var etag: String?
    /// How long caches may keep the result, as its origin said.
    var lifetime: ResultLifetime?

    /// The validators of `image`.
    init(of image: ProcessedImage) {
        created = image.created
        etag = image.etag
        lifetime = image.lifetime
    }

    /// The validators `extendedData` holds, or nil when it is not such text.
    init?(extendedData: Data) {
        let lines = String(decoding: extendedData, as: UTF8.self).split(separator: "\n", maxSplits: 1)
        let fields = (lines.first ?? "").split(separator: " ", maxSplits: 1)
        guard let first = fields.first, let seconds = TimeInterval(first) else { return nil }
        created = Date(timeIntervalSince1970: seconds)
        etag = fields.count > 1 ? String(fields[1]) : nil
        lifetime = lines.count > 1 ? ResultLifetime(storedText: lines[1]) : nil
    }

    /// The text kept as the entry's extended data.
    var extendedData: Data {
        Data((String(Int(created.timeIntervalSince1970)) + (etag.map { " " + $0 } ?? "") + (lifetime.map { "\n" + $0.storedText } ?? "")).utf8)
    }
}
