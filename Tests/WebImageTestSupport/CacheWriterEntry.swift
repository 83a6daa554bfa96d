import Foundation

/// What the `cache-writer` helper stores, so a test can tell a whole entry from any other bytes.
///
/// Entry `i` of a writer has a key made of the writer's prefix and `i`, and its bytes are a real
/// image followed by the key's UTF-8: every entry is distinct, and a truncated one is detectable.
public enum CacheWriterEntry {
    /// The key of entry `index` of the writer started with `prefix`.
    public static func key(prefix: String, index: Int) -> String {
        "https://\(prefix).writer.test/\(index).jpg"
    }

    /// The bytes stored under `key`: `image`, then the key's UTF-8.
    public static func data(image: Data, key: String) -> Data {
        image + Data(key.utf8)
    }
}
