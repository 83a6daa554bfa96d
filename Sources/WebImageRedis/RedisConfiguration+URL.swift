import Foundation

extension RedisConfiguration {
    /// A configuration for `redis://HOST[:PORT][/DATABASE]`, the form `webimage serve --redis`
    /// takes: port 6379 and database 0 when left out, an IPv6 host in brackets, the default
    /// timeouts. Credentials, TLS (`rediss://`) and query parameters are refused rather than
    /// ignored: the client sends no `AUTH` and speaks plain TCP.
    public init(url text: String) throws(RedisURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .malformed
        }
        guard scheme == "redis" else { throw .unsupportedScheme(scheme) }
        guard components.user == nil, components.password == nil else { throw .credentials }
        guard components.query == nil, components.fragment == nil else { throw .malformed }
        let host = (components.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = components.port ?? 6379
        guard (1...65535).contains(port) else { throw .invalidPort }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database: Int
        if path.isEmpty {
            database = 0
        } else {
            guard let number = Int(path), number >= 0 else { throw .invalidDatabase(path) }
            database = number
        }
        self.init(host: host.isEmpty ? "127.0.0.1" : host, port: port, database: database)
    }
}
