import Foundation

extension ServerConfiguration {
    /// Where and how connections are taken: the address, the deadlines, the connection limit, the path prefix and CORS (the HTTP application and the responder's front).
    public struct ListeningSettings: Sendable, Equatable {
        /// The address to listen on.
        public var host = "127.0.0.1"
        /// The port to listen on; 0 lets the system choose one.
        public var port = 8080
        /// How ``host``/``port`` or ``socketPath`` are listened on (imgproxy's `IMGPROXY_NETWORK`).
        public var network = ListenNetwork.tcp
        /// Whether the listening socket has `SO_REUSEPORT` (imgproxy's `IMGPROXY_SO_REUSEPORT`):
        /// several processes bind the same TCP address and port, and the kernel spreads new
        /// connections among them. A Unix socket's path cannot be shared so; it is ignored there.
        public var reusePort = false
        /// The Unix domain socket to listen on instead of ``host`` and ``port`` (imgproxy's
        /// `IMGPROXY_BIND` holding a path, with `IMGPROXY_NETWORK=unix`): for a proxy on the same
        /// machine, such as nginx's `proxy_pass http://unix:PATH`. A socket left at the path by
        /// an earlier run is replaced; any other file there stops the start.
        public var socketPath: String?
        /// Seconds an image request may take before it is answered 504 and its work cancelled.
        public var timeout = 10.0
        /// Seconds a new connection has to send its first complete request head.
        public var readRequestTimeout = 10.0
        /// Seconds a keep-alive connection may stay idle after an answer before it closes
        /// (imgproxy's `IMGPROXY_KEEP_ALIVE_TIMEOUT`); 0: no keep-alive, each answer says
        /// `Connection: close` and its connection closes.
        public var keepAliveTimeout = 10.0
        /// Seconds an answer may take to be written, from its head to its last byte, before its
        /// connection closes (imgproxy's `IMGPROXY_WRITE_RESPONSE_TIMEOUT`): a client that stops
        /// reading holds its connection and the answer's bytes no longer than this.
        public var writeResponseTimeout = 10.0
        /// Seconds requests under way may take to finish after SIGTERM or SIGINT, while new
        /// connections are refused; then they are cancelled and the server stops (imgproxy's
        /// `IMGPROXY_GRACEFUL_STOP_TIMEOUT`); nil: twice ``timeout``, as imgproxy's default.
        public var gracefulStopTimeout: Double?
        /// The most connections open at once; one past it is closed as soon as it is accepted.
        public var maxClients = 2048
        /// The origin every answer allows to read it (`Access-Control-Allow-Origin`, with
        /// `Access-Control-Allow-Methods: GET, OPTIONS`), as imgproxy's `IMGPROXY_ALLOW_ORIGIN` and
        /// thumbor's `ACCESS_CONTROL_ALLOW_ORIGIN_HEADER`; nil: no CORS fields.
        public var allowOrigin: String?
        /// What every path starts with (`/images`), or empty: other paths are answered 404.
        public var pathPrefix = ""

        /// A second path answered as `/health` is, after the path prefix (imgproxy's
        /// `IMGPROXY_HEALTH_CHECK_PATH`), or empty for none.
        public var healthCheckPath = ""
        /// What every image request's `Authorization` must be after `Bearer ` (imgproxy's
        /// `IMGPROXY_SECRET`), or nil for no check: others are answered 403.
        public var secret: SecretSetting?

        /// Whether ``host`` is a loopback address or `localhost`: only this machine can ask. A
        /// Unix socket is not counted: the proxy in front of it answers the internet.
        public var listensOnLoopback: Bool {
            socketPath == nil && (host == "localhost" || host == "::1" || host.hasPrefix("127."))
        }

        /// The defaults.
        public init() {}
    }

    /// The networks imgproxy's `IMGPROXY_NETWORK` names.
    public enum ListenNetwork: String, Sendable, CaseIterable {
        /// TCP, IPv4 or IPv6 as the address says (imgproxy's default).
        case tcp
        /// TCP over IPv4; the address must be one.
        case tcp4
        /// TCP over IPv6; the address must be one.
        case tcp6
        /// A Unix domain socket at ``ListeningSettings/socketPath``.
        case unix
    }
}
