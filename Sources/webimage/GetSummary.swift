import WebImage

/// The totals of a `webimage get` run, for its last line: how many URLs loaded and from where,
/// how many failed, the bytes received and the time.
struct GetSummary {
    /// Sources in the order the line names them.
    private static let order: [ImageSource] = [.network, .file, .data, .memory, .disk, .revalidated]

    private var sources: [ImageSource: Int] = [:]
    private var failed = 0

    /// Counts a URL that loaded from `source`.
    mutating func loaded(from source: ImageSource) { sources[source, default: 0] += 1 }

    /// Counts a URL that failed.
    mutating func failedOne() { failed += 1 }

    /// `3 loaded (2 network, 1 disk), 1 failed, 1.2 MiB received in 0.8 s`.
    func line(receivedBytes: Int, time: Duration) -> String {
        let loaded = sources.values.reduce(0, +)
        let parts = Self.order.compactMap { source in sources[source].map { "\($0) \(source.rawValue)" } }
        let from = parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        return "\(loaded) loaded\(from), \(failed) failed, \(ByteCount.human(receivedBytes)) received in "
            + "\((seconds * 10).rounded() / 10) s"
    }
}
