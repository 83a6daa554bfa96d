import Metrics
import WebImage

/// What the server measures, through swift-metrics: the factory the process bootstrapped
/// receives it (`webimage serve` bootstraps Prometheus, read at `/metrics`); without one the
/// handles do nothing. Create it after bootstrapping: a handle keeps the factory it was made by.
///
/// Names follow Prometheus's conventions (`_total` counters, `_seconds` histograms), so they
/// read the same whatever the backend.
public struct ServerMetrics: Sendable {
    /// Image requests being answered now (`webimage_requests_in_flight`).
    let requestsInFlight = Meter(label: "webimage_requests_in_flight")
    /// Requests waiting for a processing slot (`webimage_queue_length`).
    let queueLength = Meter(label: "webimage_queue_length")
    /// Downloading a source from its origin, from the request to its last byte, decoding
    /// excluded (`webimage_download_duration_seconds`).
    let downloadDuration = Timer(label: "webimage_download_duration_seconds")
    /// Making a result from a decoded source: transforming and encoding it
    /// (`webimage_processing_duration_seconds`); its count is the number of results made.
    let processingDuration = Timer(label: "webimage_processing_duration_seconds")
    /// Bytes of sources received from origins, counted for each result made from a download
    /// (`webimage_source_bytes_total`).
    let sourceBytes = Counter(label: "webimage_source_bytes_total")
    /// Results found in the shared cache and not written to the local disk, because the
    /// write-backs waiting already held their limit (`webimage_write_backs_dropped_total`).
    let writeBacksDropped = Counter(label: "webimage_write_backs_dropped_total")
    /// Results on the local disk whose bytes did not match the entity tag stored with them (cut
    /// short, or written by a version that kept none), removed and made again
    /// (`webimage_damaged_results_total`).
    let damagedResults = Counter(label: "webimage_damaged_results_total")
    /// Responses by status (`webimage_requests_total{status}`), each counter made once.
    private let responses = CounterTable<Int> {
        Counter(label: "webimage_requests_total", dimensions: [("status", String($0))])
    }
    /// Where results came from (`webimage_cache_lookups_total{cache="result", tier}`).
    private let resultLookups = CounterTable<ResultSource> {
        Counter(label: "webimage_cache_lookups_total", dimensions: [("cache", "result"), ("tier", $0.rawValue)])
    }
    /// Where the sources of results made came from (`webimage_cache_lookups_total{cache="source", tier}`).
    private let sourceLookups = CounterTable<ImageSource> {
        Counter(label: "webimage_cache_lookups_total", dimensions: [("cache", "source"), ("tier", $0.rawValue)])
    }

    /// Handles on the factory bootstrapped now.
    public init() {}

    /// Counts a response by its status (`webimage_requests_total{status="200"}`).
    func countResponse(status: Int) {
        responses.increment(status)
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
