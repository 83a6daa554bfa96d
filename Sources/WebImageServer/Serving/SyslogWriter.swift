import Dispatch
import Foundation
import Locking
import Logging

/// Sends log lines to a syslog daemon as Go's `log/syslog` writes them, which imgproxy's syslog
/// hook uses: RFC 3164's BSD form, `<PRI>TIMESTAMP HOSTNAME TAG[PID]: LINE` and a line feed, the
/// time in RFC 3339 (`2026-12-04T21:50:00Z`); to a Unix socket (the local daemon's, or
/// `unix`/`unixgram`) without the host name and with the short BSD time (`Dec  4 21:50:00`).
/// The PRI is the facility, 0 (`kern`: imgproxy dials with `LOG_INFO` as the priority, whose
/// facility bits are 0), and the severity imgproxy's hook gives the level: 7 for debug, 6
/// info, 4 warning, 3 error. A datagram carries one line; a stream carries them one after
/// another.
///
/// A line never waits for the daemon: it is queued and sent on a queue of the writer's own,
/// and dropped when ``queueLimit`` lines are waiting already. A send that fails is tried once
/// more on a new connection (a daemon that restarted), as Go's writer does, then dropped.
public final class SyslogWriter: Sendable {
    /// The least level a line needs to be sent.
    public let level: Logger.Level
    /// The tag of every line, before the process ID.
    public let tag: String
    /// How the daemon is reached; nil: its local socket.
    public let network: SyslogNetwork?
    /// Where the daemon listens on ``network``.
    public let address: String
    /// The most lines waiting to be sent; one more is dropped.
    public static let queueLimit = 1024

    /// The host name the network form carries.
    private let hostname: String
    /// The connection to the daemon, replaced when a send fails; used on ``queue`` only.
    private let descriptor: Mutex<Int32>
    /// The lines queued and not yet sent.
    private let pending = Mutex(0)
    private let queue = DispatchQueue(label: "WebImageServer.SyslogWriter", qos: .utility)

    /// A writer connected to the daemon `network` and `address` name (the local socket when
    /// `network` is nil), sending lines at or above `level` tagged `tag`; throws when the daemon
    /// cannot be reached now.
    public init(network: SyslogNetwork?, address: String, tag: String, level: Logger.Level) throws(SyslogError) {
        self.network = network
        self.address = address
        self.tag = tag
        self.level = level
        var name = [CChar](repeating: 0, count: 256)
        hostname = gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        descriptor = Mutex(try Self.dial(network, address))
    }

    deinit {
        close(descriptor.withLock { $0 })
    }

    /// Queues `line`, logged at `level`, to be sent; dropped when the queue is full.
    public func send(_ line: String, level: Logger.Level) {
        let admitted = pending.withLock { count in
            guard count < Self.queueLimit else { return false }
            count += 1
            return true
        }
        guard admitted else { return }
        let moment = time(nil)
        queue.async { [self] in
            write(message(line, severity: Self.severity(of: level), at: moment))
            pending.withLock { $0 -= 1 }
        }
    }

    /// Returns once every line queued so far has been sent (or dropped).
    public func flush() {
        queue.sync {}
    }

    /// The severity imgproxy's hook gives a line of `level`: Go's `Debug`, `Info`, `Warning` or `Err`.
    static func severity(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info, .notice: 6
        case .warning: 4
        case .error, .critical: 3
        }
    }

    /// The bytes Go's writer sends for `line` at `severity`, stamped `moment`.
    func message(_ line: String, severity: Int, at moment: time_t) -> [UInt8] {
        var text = "<\(severity)>"
        if network?.isLocal ?? true {
            text += Self.localTime(moment, "%b %e %H:%M:%S") + " " + tag
        } else {
            text += Self.rfc3339(moment) + " " + hostname + " " + tag
        }
        text += "[\(getpid())]: " + line
        if !line.hasSuffix("\n") { text += "\n" }
        return Array(text.utf8)
    }

    /// Sends `bytes`, once more on a new connection when that fails.
    private func write(_ bytes: [UInt8]) {
        descriptor.withLock { descriptor in
            if Self.sendAll(bytes, on: descriptor) { return }
            guard let fresh = try? Self.dial(network, address) else { return }
            close(descriptor)
            descriptor = fresh
            _ = Self.sendAll(bytes, on: fresh)
        }
    }

    /// Whether all of `bytes` went out on `descriptor` (one datagram, or all of a stream's writes).
    private static func sendAll(_ bytes: [UInt8], on descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Foundation.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent > 0 {
                    offset += sent
                } else if sent < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    // MARK: Connecting

    /// A socket connected to the daemon: the local one's as Go's `log/syslog` finds it (each
    /// path as a datagram socket, then as a stream), or `address` on `network`.
    private static func dial(_ network: SyslogNetwork?, _ address: String) throws(SyslogError) -> Int32 {
        let datagram = Int32(SOCK_DGRAM.rawValue), stream = Int32(SOCK_STREAM.rawValue)
        guard let network else {
            for path in ["/dev/log", "/var/run/syslog", "/var/run/log"] {
                for type in [datagram, stream] {
                    if let socket = try? dialUnix(path, type: type) { return socket }
                }
            }
            throw .noLocalDaemon
        }
        guard !address.isEmpty else { throw .addressMissing(network) }
        return switch network {
        case .unix: try dialUnix(address, type: stream)
        case .unixgram: try dialUnix(address, type: datagram)
        case .udp, .udp4, .udp6: try dialInternet(address, type: datagram, family: family(of: network))
        case .tcp, .tcp4, .tcp6: try dialInternet(address, type: stream, family: family(of: network))
        }
    }

    /// The address family `network` asks for: IPv4, IPv6, or either.
    private static func family(of network: SyslogNetwork) -> Int32 {
        switch network {
        case .udp4, .tcp4: AF_INET
        case .udp6, .tcp6: AF_INET6
        default: AF_UNSPEC
        }
    }

    /// A Unix socket of `type` connected to `path`.
    private static func dialUnix(_ path: String, type: Int32) throws(SyslogError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .unreachable(path, reason: "the path is too long for a socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let socket = Foundation.socket(AF_UNIX, type, 0)
        guard socket >= 0 else { throw .unreachable(path, reason: String(cString: strerror(errno))) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw .unreachable(path, reason: reason)
        }
        boundSends(socket)
        return socket
    }

    /// A socket of `type` connected to `address` (`HOST:PORT`, `[IPV6]:PORT`), the first of
    /// its host's addresses of `family` that takes the connection.
    private static func dialInternet(_ address: String, type: Int32, family: Int32) throws(SyslogError) -> Int32 {
        guard let colon = address.lastIndex(of: ":"), address.index(after: colon) < address.endIndex else { throw .badAddress(address) }
        let host = address[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = String(address[address.index(after: colon)...])
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = type
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host.isEmpty ? "localhost" : host, port, &hints, &found) == 0, let first = found else {
            throw .badAddress(address)
        }
        defer { freeaddrinfo(first) }
        var reason = "no address of the right family"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = entry?.pointee {
            entry = candidate.ai_next
            let socket = Foundation.socket(candidate.ai_family, candidate.ai_socktype, candidate.ai_protocol)
            guard socket >= 0 else { continue }
            if Foundation.connect(socket, candidate.ai_addr, candidate.ai_addrlen) == 0 {
                boundSends(socket)
                return socket
            }
            reason = String(cString: strerror(errno))
            close(socket)
        }
        throw .unreachable(address, reason: reason)
    }

    /// A send on `socket` waits a second at most: a stalled stream daemon drops lines rather
    /// than holding the queue for ever.
    private static func boundSends(_ socket: Int32) {
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    // MARK: Time

    /// `moment` in local time, as `format` (strftime's) spells it.
    private static func localTime(_ moment: time_t, _ format: String) -> String {
        var moment = moment
        var local = tm()
        guard localtime_r(&moment, &local) != nil else { return "-" }
        var text = [CChar](repeating: 0, count: 64)
        let count = strftime(&text, text.count, format, &local)
        return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `moment` in local time as Go's `time.RFC3339` spells it: `Z` for UTC, else `±hh:mm`.
    private static func rfc3339(_ moment: time_t) -> String {
        var copy = moment
        var local = tm()
        guard localtime_r(&copy, &local) != nil else { return "-" }
        let offset = local.tm_gmtoff
        guard offset != 0 else { return localTime(moment, "%Y-%m-%dT%H:%M:%S") + "Z" }
        let minutes = abs(offset) / 60
        return localTime(moment, "%Y-%m-%dT%H:%M:%S") + (offset < 0 ? "-" : "+")
            + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
