import Hummingbird
import NIOCore

/// A response worked out in full before it is written: its status line and fields, and its
/// body's bytes. The responder's answers take this form, so that the same answer reaches the
/// client whether Hummingbird writes it (``ImageServerResponder/respond(to:context:)``) or the
/// `MemoryHitHandler` does, on the connection's event loop.
public struct PreparedResponse: Sendable {
    /// The status and header fields.
    public var head: HTTPResponse
    /// The body; nil for none (`HEAD`, `304`).
    public var body: ByteBuffer?

    /// A response with `status`, `headerFields` and `body`.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: ByteBuffer? = nil) {
        head = HTTPResponse(status: status, headerFields: headerFields)
        self.body = body
    }
}

extension Response {
    /// Hummingbird's response for `prepared`.
    init(_ prepared: PreparedResponse) {
        self.init(status: prepared.head.status, headers: prepared.head.headerFields,
                  body: prepared.body.map(ResponseBody.init(byteBuffer:)) ?? ResponseBody())
    }
}
