import Foundation

extension ImageCaching {
    /// The bytes a disk-only ``query(forKey:options:)`` finds. That query decodes them too, so a
    /// tier that can read its bytes without decoding answers this itself, as ``ImageCache``,
    /// ``ImageCachesManager`` and a shared tier in Redis do.
    public func diskImageData(forKey key: String) async -> Data? {
        try? await query(forKey: key, options: ImageCacheQueryOptions(cacheType: .disk)).data
    }

    /// The bytes and the validators, asked for at once.
    public func diskImageDataAndValidators(forKey key: String) async -> (data: Data, validators: HTTPValidators?)? {
        async let validators = validators(forKey: key)
        guard let data = await diskImageData(forKey: key) else { return nil }
        return (data, await validators)
    }

    /// The validators first, then the bytes: a tier reading both (Redis) finds the validators of
    /// the bytes it finds. A tier whose validators need the entry (``ImageCache``) stores the
    /// bytes first.
    public func storeData(_ data: Data, validators: HTTPValidators?, forKey key: String) async {
        await setValidators(validators, forKey: key)
        try? await store(nil, data: data, forKey: key, to: .disk, serializer: nil)
    }
}
