/// The networks imgproxy's `IMGPROXY_SYSLOG_NETWORK` names that a syslog daemon listens on (Go's
/// `net.Dial` names); unset, the local daemon's socket is found as Go's `log/syslog` finds it.
public enum SyslogNetwork: String, Sendable, CaseIterable {
    /// UDP, IPv4 or IPv6 as the address resolves: one datagram a line.
    case udp
    /// UDP over IPv4.
    case udp4
    /// UDP over IPv6.
    case udp6
    /// TCP, IPv4 or IPv6 as the address resolves: lines one after another, each ending in a line feed.
    case tcp
    /// TCP over IPv4.
    case tcp4
    /// TCP over IPv6.
    case tcp6
    /// A Unix stream socket at the address's path.
    case unix
    /// A Unix datagram socket at the address's path, as `/dev/log` is.
    case unixgram

    /// Whether the daemon is on this machine, reached through a Unix socket: Go's writer then
    /// leaves the host name out and stamps a line with the short BSD time (`Dec  4 21:50:00`).
    public var isLocal: Bool { self == .unix || self == .unixgram }
}
