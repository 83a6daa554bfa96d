import Foundation

/// Which sources the server loads, and from where: the allowed URL prefixes (imgproxy's
/// `IMGPROXY_ALLOWED_SOURCES`) and the folder `local:///path` sources are read from. Which
/// addresses `http(s)` sources may connect to is ``SourceAddressPolicy``'s business, applied
/// where the downloader connects.
public struct SourcePolicy: Sendable {
    /// Prefixes a source URL must start with; empty allows any.
    public let allowedSources: [String]
    /// The folder `local:///path` sources are read from, its links resolved, or nil to refuse them.
    public let localRoot: URL?

    /// The policy of `configuration`: its allowed sources and local root.
    public init(_ configuration: ServerConfiguration) {
        allowedSources = configuration.allowedSources
        localRoot = configuration.localRoot.map { URL(fileURLWithPath: $0, isDirectory: true).resolvingSymlinksInPath() }
    }

    /// The URL to load for `source`, once it starts with one of ``allowedSources`` (when there
    /// are any): an `http(s)` source as it is, a `local:///path` source as the file below
    /// ``localRoot``. The file is judged by its real path, every link resolved, so neither `..`
    /// nor a link inside the folder reaches a file outside it.
    public func resolve(_ source: URL) throws(ProcessingError) -> URL {
        guard allowedSources.isEmpty || allowedSources.contains(where: source.absoluteString.hasPrefix) else {
            throw .forbidden("the source is not among the allowed sources")
        }
        guard source.scheme?.lowercased() == "local" else { return source }
        guard let localRoot else { throw .forbidden("local sources are not enabled") }
        let file = localRoot.appendingPathComponent(source.path).standardizedFileURL.resolvingSymlinksInPath()
        let inside = localRoot.path.hasSuffix("/") ? localRoot.path : localRoot.path + "/"
        guard file.path.hasPrefix(inside) else { throw .forbidden("the local path leaves the served folder") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw .sourceNotFound
        }
        return file
    }
}
