extension ServerConfiguration.ListeningSettings {
    /// Checks ``network`` against the bind address as imgproxy's `net.Listen` would: throws
    /// ``ConfigurationError`` for `unix` without a socket path, a socket path without `unix`,
    /// `tcp4` with an IPv6 address, `tcp6` with an IPv4 one; `tcp6` on every interface
    /// (`:PORT`) listens on `::`.
    mutating func resolveNetwork() throws(ConfigurationError) {
        let source = "--network (IMGPROXY_NETWORK)"
        switch network {
        case .unix:
            guard socketPath != nil else { throw ConfigurationError(source: source, reason: "is unix, and --bind names no socket path") }
        case .tcp, .tcp4, .tcp6:
            guard socketPath == nil else {
                throw ConfigurationError(source: "--bind (IMGPROXY_BIND)", reason: "is a socket path; it needs --network unix")
            }
            let isIPv6 = host.contains(":")
            if network == .tcp4 && isIPv6 { throw ConfigurationError(source: source, reason: "is tcp4, and --bind is an IPv6 address") }
            if network == .tcp6 && host == "0.0.0.0" { host = "::" }
            if network == .tcp6 && !host.contains(":") && host != "localhost" {
                throw ConfigurationError(source: source, reason: "is tcp6, and --bind is an IPv4 address")
            }
        }
    }
}
