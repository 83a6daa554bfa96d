import Metrics
import WebImage

/// What the server measures, through swift-metrics: the factory it is made with receives it
/// (the server's Prometheus registry, read at `/metrics`, or the factory the process
/// bootstrapped); a handle keeps the factory it was made by, so two servers in one process
/// count apart.
///
/// Names follow Prometheus's conventions (`_total` counters, `_seconds` histograms), so they
/// read the same whatever the backend, and imgproxy's where imgproxy measures the same thing
/// (`requests_total`, `status_codes_total`, `request_duration_seconds`, `requests_in_progress`),
/// so that imgproxy's dashboards read them with the namespace set to theirs
/// (``NamespacedMetricsFactory``).
public struct ServerMetrics: Sendable {
    /// Image requests being answered now (`webimage_requests_in_progress`).
    let requestsInFlight: Meter
    /// Image requests answered, whatever their status (`webimage_requests_total`).
    let requests: Counter
    /// Image requests from their arrival to their answer (`webimage_request_duration_seconds`).
    let requestDuration: Timer
    /// Requests waiting for a processing slot (`webimage_queue_length`).
    let queueLength: Meter
    /// Downloading a source from its origin, from the request to its last byte, decoding
    /// excluded (`webimage_download_duration_seconds`).
    let downloadDuration: Timer
    /// Making a result from a decoded source: transforming and encoding it
    /// (`webimage_processing_duration_seconds`); its count is the number of results made.
    let processingDuration: Timer
    /// Bytes of sources received from origins, counted for each result made from a download
    /// (`webimage_source_bytes_total`).
    let sourceBytes: Counter
    /// Results found in the shared cache and not written to the local disk, because the
    /// write-backs waiting already held their limit (`webimage_write_backs_dropped_total`).
    let writeBacksDropped: Counter
    /// Results on the local disk whose bytes did not match the entity tag stored with them (cut
    /// short, or written by a version that kept none), removed and made again
    /// (`webimage_damaged_results_total`).
    let damagedResults: Counter
    /// Responses by status (`webimage_status_codes_total{status}`), each counter made once.
    private let responses: CounterTable<Int>
    /// Where results came from (`webimage_cache_lookups_total{cache="result", tier}`).
    private let resultLookups: CounterTable<ResultSource>
    /// Where the sources of results made came from (`webimage_cache_lookups_total{cache="source", tier}`).
    private let sourceLookups: CounterTable<ImageSource>

    /// Handles on `factory`: by default the one the process bootstrapped.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        requestsInFlight = Meter(label: "webimage_requests_in_progress", factory: factory)
        requests = Counter(label: "webimage_requests_total", factory: factory)
        requestDuration = Timer(label: "webimage_request_duration_seconds", factory: factory)
        queueLength = Meter(label: "webimage_queue_length", factory: factory)
        downloadDuration = Timer(label: "webimage_download_duration_seconds", factory: factory)
        processingDuration = Timer(label: "webimage_processing_duration_seconds", factory: factory)
        sourceBytes = Counter(label: "webimage_source_bytes_total", factory: factory)
        writeBacksDropped = Counter(label: "webimage_write_backs_dropped_total", factory: factory)
        damagedResults = Counter(label: "webimage_damaged_results_total", factory: factory)
        responses = CounterTable { Counter(label: "webimage_status_codes_total", dimensions: [("status", String($0))], factory: factory) }
        resultLookups = CounterTable {
            Counter(label: "webimage_cache_lookups_total", dimensions: [("cache", "result"), ("tier", $0.rawValue)], factory: factory)
        }
        sourceLookups = CounterTable {
            Counter(label: "webimage_cache_lookups_total", dimensions: [("cache", "source"), ("tier", $0.rawValue)], factory: factory)
        }
    }

    /// Counts a response (`webimage_requests_total`), by its status
    /// (`webimage_status_codes_total{status="200"}`), and the time it took.
    func countResponse(status: Int, after duration: Duration) {
        requests.increment()
        responses.increment(status)
        requestDuration.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Counts where a result came from (`webimage_cache_lookups_total{cache="result", tier}`):
    /// `memory`, `disk`, `shared`, `made` or `coalesced` (see ``ResultSource``).
    func countResult(from source: ResultSource) {
        resultLookups.increment(source)
    }

    /// Counts where the source of a result made now came from
    /// (`webimage_cache_lookups_total{cache="source", tier}`): `memory`, `disk`, `network` or
    /// `file` (see `ImageSource`).
    func countSource(from source: ImageSource) {
        sourceLookups.increment(source)
    }
}
