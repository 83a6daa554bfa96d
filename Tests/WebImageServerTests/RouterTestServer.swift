import HummingbirdTesting
import WebImageServer
import WebImageTestSupport

/// The server `webimage serve` assembles (``ImageServer/init(configuration:extensions:)``) over
/// `local:///` sources from `folder`'s `images`, caching in its `cache`, signing with `key` (as
/// key and salt) when given, with `configure`'s changes over that; `body` drives it through HummingbirdTesting's router setup, then
/// it is shut down.
func withRouterTestServer(in folder: TemporaryFolder, key: String? = nil,
                          configure: (inout ImageServer.Configuration) -> Void = { _ in },
                          _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    var configuration = ImageServer.Configuration()
    configuration.sources.localRoot = folder.appending("images").path
    configuration.caches.cacheDir = folder.appending("cache").path
    if let key {
        configuration.urls.keys = [key]
        configuration.urls.salts = [key]
    }
    configure(&configuration)
    let server = try await ImageServer(configuration: configuration)
    do {
        try await server.application().test(.router, body)
    } catch {
        try await server.shutdown()
        throw error
    }
    try await server.shutdown()
}
