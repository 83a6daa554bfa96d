import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import Tracing
import WebImage

extension ImageServer {
    /// What an app embedding the server (or `webimage serve`) adds to the server its
    /// configuration describes: modules the server does not link (WebImageRedis,
    /// WebImageObjectStorage) come in here as caches and loaders, so that
    /// ``ImageServer/init(configuration:extensions:)`` is the one assembly of the server.
    public struct Extensions: Sendable {
        /// A cache of source bytes shared between instances, asked after the local memory and
        /// disk caches and stored to with them (Redis).
        public var sharedSources: (any ImageCaching)?
        /// Caches of results shared between instances, asked in this order after the local
        /// disk, each stored to (Redis, then object storage).
        public var sharedResults: [any ImageCaching]
        /// Loaders for more URL schemes than the standard ones (`s3://`).
        public var loaders: [any ImageLoader]
        /// The registry `/metrics` shows; nil: `/metrics` is a 404.
        public var metricsRegistry: PrometheusCollectorRegistry?
        /// The factory the server's own counters are made by; nil: a Prometheus factory over
        /// ``metricsRegistry`` when there is one (so servers in one process count apart), else
        /// the one the process bootstrapped.
        public var metricsFactory: (any MetricsFactory)?
        /// A factory the server's counters are made by as well, exporting them elsewhere
        /// (OpenTelemetry's OTLP metrics, from `WebImageTelemetry`); nil: none.
        public var exportedMetricsFactory: (any MetricsFactory)?
        /// Where the request lines go.
        public var logger: Logger
        /// What image requests are traced by, each a server span with a span for each stage
        /// and the download's client span, whose context goes to the origin (an OpenTelemetry
        /// tracer from `WebImageTelemetry`); nil: no spans.
        public var tracer: (any Tracer)?
        /// Services run beside the server's listeners, started before them and stopped after
        /// them (the tracer's exporter, which sends the last spans as it stops).
        public var services: [any Service]

        /// Extensions with the given parts; by default none, with request lines logged as `webimage.serve`.
        public init(sharedSources: (any ImageCaching)? = nil, sharedResults: [any ImageCaching] = [],
                    loaders: [any ImageLoader] = [], metricsRegistry: PrometheusCollectorRegistry? = nil,
                    metricsFactory: (any MetricsFactory)? = nil, exportedMetricsFactory: (any MetricsFactory)? = nil,
                    logger: Logger = Logger(label: "webimage.serve"), tracer: (any Tracer)? = nil, services: [any Service] = []) {
            self.sharedSources = sharedSources
            self.sharedResults = sharedResults
            self.loaders = loaders
            self.metricsRegistry = metricsRegistry
            self.metricsFactory = metricsFactory
            self.exportedMetricsFactory = exportedMetricsFactory
            self.logger = logger
            self.tracer = tracer
            self.services = services
        }

        /// The factory the server's counters are made by (see ``metricsFactory``), with
        /// ``exportedMetricsFactory`` beside it, naming them in `namespace`.
        func countingFactory(namespace: String) -> any MetricsFactory {
            let counting = metricsFactory ?? metricsRegistry.map { PrometheusMetricsFactory(registry: $0) } ?? MetricsSystem.factory
            let factory = exportedMetricsFactory.map { MultiplexMetricsHandler(factories: [counting, $0]) } ?? counting
            return NamespacedMetricsFactory.wrapping(factory, namespace: namespace)
        }
    }
}
