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

    /// Completed when the client of the request's connection has gone (see
    /// ``ClientDepartureHandler``); without that handler in the pipeline, when the connection closes.
    var clientDeparted: EventLoopFuture<Void> {
        channel.pipeline.handler(type: ClientDepartureHandler.self)
            .flatMap { $0.departed?.futureResult ?? self.channel.closeFuture }
            .flatMapError { _ in self.channel.closeFuture }
    }
}
