/// Why the syslog daemon cannot be reached at start (`--syslog`): a start error, as imgproxy's
/// `unable to connect to syslog daemon`, rather than lines lost unseen.
public enum SyslogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--syslog-network` is set and `--syslog-address` is not.
    case addressMissing(SyslogNetwork)
    /// The address is not `HOST:PORT`, or its host does not resolve.
    case badAddress(String)
    /// No local daemon listens at `/dev/log`, `/var/run/syslog` or `/var/run/log`.
    case noLocalDaemon
    /// Connecting to the address failed, with the system's reason.
    case unreachable(String, reason: String)

    public var description: String {
        switch self {
        case .addressMissing(let network):
            "unable to connect to syslog daemon: --syslog-network \(network.rawValue) needs --syslog-address (IMGPROXY_SYSLOG_ADDRESS)"
        case .badAddress(let address):
            "unable to connect to syslog daemon: \"\(address)\" is not HOST:PORT with a host that resolves"
        case .noLocalDaemon:
            "unable to connect to syslog daemon: none listens at /dev/log, /var/run/syslog or /var/run/log"
        case .unreachable(let address, let reason):
            "unable to connect to syslog daemon at \(address): \(reason)"
        }
    }
}
