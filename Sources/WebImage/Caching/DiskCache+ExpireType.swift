extension DiskCache {
    /// Which date of a file ``Configuration/maxAge`` is measured from (SDWebImage's
    /// `SDImageCacheConfigExpireType`).
    public enum ExpireType: Sendable, Hashable {
        /// The last time the entry was stored or read. The cache stamps this itself on every
        /// read, so it holds on file systems mounted `noatime` or `relatime`.
        case accessDate
        /// The last time the entry was stored.
        case modificationDate
        /// When the file was created: the last store, since a store replaces the file. Read
        /// from the file system's birth time where it records one, else the modification time.
        case creationDate
    }
}
