import HTTPTypes
import Tracing

/// The spans of the image requests a server answers, made by its tracer (an OpenTelemetry one
/// with `--open-telemetry`): a server span a request and, inside it, a span for each stage —
/// the result caches, the download (whose client span the downloader makes, its context sent
/// to the origin), decoding, transforming, encoding. Without a tracer it does nothing, at no cost.
struct RequestTracer: Sendable {
    /// What makes the spans; nil for none.
    let tracer: (any Tracer)?

    /// Runs `body` in a span named `name` of `kind`, the child of `parent` (the current span's
    /// context when nil); `body` may set the span's attributes through the ``SpanRecorder`` it
    /// is given. An error thrown is recorded on the span, which ends when `body` does.
    func span<T, E: Error>(_ name: String, kind: SpanKind = .internal, parent: ServiceContext? = nil,
                           _ body: (SpanRecorder) async throws(E) -> T) async throws(E) -> T {
        guard let tracer else { return try await body(SpanRecorder(span: nil)) }
        let span = tracer.startSpan(name, context: parent ?? ServiceContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        let result: Result<T, E> = await ServiceContext.$current.withValue(span.context) {
            do throws(E) {
                return .success(try await body(SpanRecorder(span: span)))
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result { SpanRecorder(span: span).fail(error) }
        return try result.get()
    }

    /// Runs the synchronous `body` in a span named `name`, the child of the current span, as
    /// the asynchronous form does; for work that starts nothing of its own (decoding, encoding).
    func span<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard let tracer else { return try body() }
        let span = tracer.startSpan(name, context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        defer { span.end() }
        do throws(E) {
            return try body()
        } catch {
            SpanRecorder(span: span).fail(error)
            throw error
        }
    }

    /// The context a request's server span is the child of: the trace a client's fields
    /// (`traceparent`) name when `continuing` them, else none (a trace of its own).
    func parent(of fields: HTTPFields, continuing: Bool) -> ServiceContext {
        var context = ServiceContext.topLevel
        if continuing, let tracer { tracer.extract(fields, into: &context, using: TraceFieldExtractor()) }
        return context
    }

    /// The instant a span recorded later (``record(_:kind:parent:since:_:)``) begins.
    var now: DefaultTracerClock.Instant { DefaultTracerClock.now }

    /// A span of `name` that began at `start` and ends now, the child of `parent`: for an
    /// answer given at once on the thread that read its request, which starts no task.
    func record(_ name: String, kind: SpanKind, parent: ServiceContext, since start: DefaultTracerClock.Instant,
                _ describe: (SpanRecorder) -> Void) {
        guard let tracer else { return }
        let span = tracer.startSpan(name, context: parent, ofKind: kind, at: start)
        describe(SpanRecorder(span: span))
        span.end()
    }
}
