extension ThumborURLSigner {
    /// The signer of thumbor URLs `urls` describes: its security key, and whether unsigned
    /// `unsafe` URLs are still answered.
    public init(_ urls: ServerConfiguration.URLSettings) {
        self.init(key: urls.thumborKey, allowsUnsafe: urls.thumborAllowUnsafeURL)
    }
}
