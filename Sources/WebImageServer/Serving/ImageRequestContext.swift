import Hummingbird
import NIOCore

/// The request context of ``ImageServerResponder``: Hummingbird's basic one, and the connection
/// the request came on, whose closing tells the responder that the client has gone.
public struct ImageRequestContext: RequestContext {
    /// Hummingbird's own state of the request.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    /// The context of a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// What tells the request that its client has gone (see ``ClientDepartureHandler``); nil
    /// without that handler in the pipeline.
    var departure: DepartureSignal? {
        get async {
            try? await channel.pipeline.handler(type: ClientDepartureHandler.self).map(\.signal).get()
        }
    }
}
