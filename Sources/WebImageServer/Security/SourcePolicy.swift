import Foundation

/// Which sources the server loads, and from where: the allowed URL prefixes (imgproxy's
/// `IMGPROXY_ALLOWED_SOURCES`) and the folder `local:///path` sources are read from. Which
/// addresses `http(s)` sources may connect to is ``SourceAddressPolicy``'s business, applied
/// where the downloader connects.
public struct SourcePolicy: Sendable {
    /// Prefixes a source URL must start with (`*` standing for any run of characters but `/`,
    /// see `WildcardPrefix`); empty allows any.
    public let allowedSources: [String]
    private let allowedPatterns: [WildcardPrefix]
    /// thumbor's `ALLOWED_SOURCES`: an `http(s)` source's host or URL must match one; empty allows any.
    public let thumborAllowedSources: [ThumborSourcePattern]
    /// The folder `local:///path` sources are read from, its links resolved, or nil to refuse them.
    public let localRoot: URL?
    /// Whether `s3://bucket/key` sources are loaded (by the object storage loader the server's
    /// manager was given).
    public let allowsObjectStorage: Bool
    /// The buckets `s3://` sources may name (empty: any) and may not.
    public let allowedBuckets: Set<String>, deniedBuckets: Set<String>
    /// What splits an `s3://` or `local://` source's key from its query
    /// (``ServerConfiguration/SourceSettings/sourceURLQuerySeparator``).
    public let querySeparator: String

    /// The policy of `sources`: its allowed sources and local root; `s3://` sources when
    /// `allowsObjectStorage` (``ServerConfiguration/ObjectStorageSettings/useS3``), in
    /// `allowedBuckets` (when any) and not in `deniedBuckets`.
    public init(_ sources: ServerConfiguration.SourceSettings, allowsObjectStorage: Bool = false,
                allowedBuckets: [String] = [], deniedBuckets: [String] = []) {
        self.allowedBuckets = Set(allowedBuckets)
        self.deniedBuckets = Set(deniedBuckets)
        allowedSources = sources.allowedSources
        allowedPatterns = sources.allowedSources.map(WildcardPrefix.init)
        thumborAllowedSources = sources.thumborAllowedSources
        localRoot = sources.localRoot.map { URL(fileURLWithPath: $0, isDirectory: true).resolvingSymlinksInPath() }
        self.allowsObjectStorage = allowsObjectStorage
        querySeparator = sources.sourceURLQuerySeparator
    }

    /// The URL to load for `source`, once it starts with one of ``allowedSources`` (when there
    /// are any) and, over HTTP, matches one of ``thumborAllowedSources`` (when there are any): an `http(s)` source as it is, an `s3://` one as it is when ``allowsObjectStorage``,
    /// a `local:///path` source as the file below
    /// ``localRoot``. The file is judged by its real path, every link resolved, so neither `..`
    /// nor a link inside the folder reaches a file outside it.
    public func resolve(_ source: URL) throws(ProcessingError) -> URL {
        let scheme = source.scheme?.lowercased()
        let source = scheme == "s3" || scheme == "local" ? Self.splittingQuery(of: source, at: querySeparator) : source
        guard allowedPatterns.isEmpty || allowedPatterns.contains(where: { $0.matches(source.absoluteString) }) else {
            throw .sourceRefused("the source is not among the allowed sources")
        }
        if scheme == "http" || scheme == "https", !thumborAllowedSources.isEmpty,
           !thumborAllowedSources.contains(where: { $0.matches(source) }) {
            throw .sourceRefused("the source matches none of the allowed sources")
        }
        if source.scheme?.lowercased() == "s3" {
            guard allowsObjectStorage else { throw .sourceRefused("s3 sources are not enabled") }
            let bucket = source.host ?? ""
            guard allowedBuckets.isEmpty || allowedBuckets.contains(bucket), !deniedBuckets.contains(bucket) else {
                throw .sourceRefused("the bucket is not allowed")
            }
            return source
        }
        guard source.scheme?.lowercased() == "local" else { return source }
        guard let localRoot else { throw .sourceRefused("local sources are not enabled") }
        let file = localRoot.appendingPathComponent(source.path).standardizedFileURL.resolvingSymlinksInPath()
        let inside = localRoot.path.hasSuffix("/") ? localRoot.path : localRoot.path + "/"
        guard file.path.hasPrefix(inside) else { throw .sourceRefused("the local path leaves the served folder") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw .sourceNotFound
        }
        return file
    }

    /// `source` with its key and query split where `separator` says instead of at `?`: the
    /// key and query read together (the `?` between them restored) are cut at the first
    /// `separator`; an empty separator leaves them all key. `?`, the default, keeps `source`.
    static func splittingQuery(of source: URL, at separator: String) -> URL {
        guard separator != "?", var components = URLComponents(url: source, resolvingAgainstBaseURL: false) else { return source }
        var key = components.path + (components.query.map { "?" + $0 } ?? "")
        var query: String?
        if !separator.isEmpty, let range = key.range(of: separator) {
            query = String(key[range.upperBound...])
            key = String(key[..<range.lowerBound])
        }
        components.path = key
        components.query = query
        return components.url ?? source
    }
}
