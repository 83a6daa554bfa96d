import Foundation

extension ImageCaching {
    /// The bytes a disk-only ``query(forKey:options:)`` finds. That query decodes them too, so a
    /// tier that can read its bytes without decoding answers this itself, as ``ImageCache``,
    /// ``ImageCachesManager`` and a shared tier in Redis do.
    public func diskImageData(forKey key: String) async -> Data? {
        try? await query(forKey: key, options: ImageCacheQueryOptions(cacheType: .disk)).data
    }
}
