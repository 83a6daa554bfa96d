import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
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

/// One answer of ``routerAnswers(in:_:headers:configure:)``.
struct RouterAnswer: Sendable {
    /// The status.
    var status: HTTPResponse.Status
    /// The header fields.
    var headers: HTTPFields
    /// The body.
    var body: Data
}

/// The answers of `uris`, asked in order with `headers` of the server ``withRouterTestServer(in:key:configure:_:)``
/// makes for `folder` with `configure`'s changes.
func routerAnswers(in folder: TemporaryFolder, _ uris: [String], headers: HTTPFields = [:],
                   configure: (inout ImageServer.Configuration) -> Void = { _ in }) async throws -> [RouterAnswer] {
    let answers = RouterAnswers()
    try await withRouterTestServer(in: folder, configure: configure) { client in
        for uri in uris {
            let answer = try await client.execute(uri: uri, method: .get, headers: headers)
            answers.append(RouterAnswer(status: answer.status, headers: answer.headers, body: Data(buffer: answer.body)))
        }
    }
    return answers.all
}

/// The answers collected inside the server's `@Sendable` body, which runs before they are read.
private final class RouterAnswers: @unchecked Sendable {
    private(set) var all: [RouterAnswer] = []
    func append(_ answer: RouterAnswer) { all.append(answer) }
}
