import Foundation
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// `--open-telemetry`: image requests traced through swift-otel's OTLP/HTTP exporter to a real
/// receiver on loopback, decoded there by `opentelemetry-proto`, the download's context sent on
/// to the origin.
final class ServeTelemetryTests: ServeTestCase {
    func testARequestIsAServerSpanWithAStageSpanEachAndTheOriginJoinsTheClientsTrace() async throws {
        let receiver = try OTLPReceiver()
        let server = try await serve(["--allow-loopback-sources", "--open-telemetry", "--otlp-endpoint", receiver.endpoint,
                                      "--open-telemetry-propagate-external", "--otel-service-name", "images"])
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736", clientSpan = "00f067aa0ba902b7"
        let path = "/insecure/w:100/plain/\(origin.url("/photo.jpg").absoluteString)@png"
        let made = try await get(server + path, headers: [("traceparent", "00-\(trace)-\(clientSpan)-01")])
        XCTAssertEqual(made.status, 200)
        let remembered = try await get(server + path)
        XCTAssertEqual(remembered.status, 200)
        let refused = try await get(server + "/insecure/w:100/plain/\(origin.url("/gone.jpg").absoluteString)")
        XCTAssertEqual(refused.status, 404)
        // Stopping sends what the exporter still holds.
        for server in servers { await server.stop() }
        servers.removeAll()
        let spans = receiver.spans { $0.filter { $0.name == "/request" }.count >= 3 }
        XCTAssertTrue(spans.allSatisfy { $0.path == "/v1/traces" && $0.service == "images" }, "\(spans.map { ($0.path, $0.service) })")

        let requests = spans.filter { $0.name == "/request" }
        XCTAssertEqual(requests.count, 3, "\(spans.map(\.name))")
        let root = try XCTUnwrap(requests.first { $0.trace == trace }, "the client's trace is continued")
        XCTAssertEqual(root.parent, clientSpan)
        XCTAssertEqual(root.kind, 2, "a server span")
        XCTAssertEqual(root.attributes["http.request.method"], "GET")
        XCTAssertEqual(root.attributes["url.path"], String(path.dropFirst("/insecure".count)), "the path without its signature, as logged")
        XCTAssertEqual(root.attributes["http.response.status_code"], "200")
        let children = Dictionary(spans.filter { $0.trace == trace }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for stage in ["Reading cached result", "Downloading image", "Processing image", "Storing result"] {
            XCTAssertEqual(children[stage]?.parent, root.span, "\(stage) is the request's child")
        }
        for stage in ["Decoding image", "Transforming image", "Encoding image"] {
            XCTAssertEqual(children[stage]?.parent, children["Processing image"]?.span, "\(stage) is inside processing")
        }
        let download = try XCTUnwrap(children["GET"], "the download's client span")
        XCTAssertEqual(download.kind, 3)
        XCTAssertEqual(download.parent, children["Downloading image"]?.span)
        XCTAssertEqual(download.attributes["http.response.status_code"], "200")
        let sent = try XCTUnwrap(origin.requests.first { $0.path == "/photo.jpg" }?.headers["traceparent"])
        XCTAssertEqual(sent, "00-\(trace)-\(download.span)-01", "the origin is sent the download span's context")

        let memoryHit = try XCTUnwrap(requests.first { $0.attributes["webimage.cache.hit"] == "memory" })
        XCTAssertNotEqual(memoryHit.trace, trace, "a request without traceparent starts its own trace")
        XCTAssertEqual(memoryHit.parent, "")
        let notFound = try XCTUnwrap(requests.first { $0.attributes["http.response.status_code"] == "404" })
        XCTAssertEqual(notFound.status, 0, "a 404 is the client's error, not a failed span")
        let failedDownload = spans.first { $0.name == "Downloading image" && $0.trace == notFound.trace }
        XCTAssertEqual(failedDownload?.status, 2, "the download that found nothing failed")
    }

    func testWithoutPropagationAClientsTraceparentIsNotContinuedAndGRPCIsRefused() async throws {
        let receiver = try OTLPReceiver()
        let server = try await serve(["--allow-loopback-sources", "--open-telemetry", "--otlp-protocol", "http/json"],
                                     environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint])
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
        let made = try await get(server + "/insecure/w:50/plain/\(origin.url("/photo.jpg").absoluteString)",
                                 headers: [("traceparent", "00-\(trace)-00f067aa0ba902b7-01")])
        XCTAssertEqual(made.status, 200)
        for server in servers { await server.stop() }
        servers.removeAll()
        let root = try XCTUnwrap(receiver.spans { $0.contains { $0.name == "/request" } }.first { $0.name == "/request" },
                                 "spans exported as JSON reach the receiver")
        XCTAssertNotEqual(root.trace, trace, "a client on the internet does not choose the trace")
        XCTAssertEqual(root.parent, "")
        XCTAssertEqual(root.service, "webimage")
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"])) { error in
            XCTAssertTrue("\(error)".contains("whose exporter is not built here"), "\(error)")
        }
    }

    /// `--open-telemetry-enable-metrics`: the server's counters reach the collector's
    /// `/v1/metrics` under their Prometheus names, counting what was asked, while `/metrics`
    /// still shows them.
    func testMetricsAreExportedOverOTLPBesidePrometheus() async throws {
        let receiver = try OTLPReceiver()
        let server = try await serve(["--allow-loopback-sources", "--open-telemetry", "--otlp-endpoint", receiver.endpoint,
                                      "--open-telemetry-enable-metrics", "--otel-metric-export-interval", "200"])
        for width in [100, 120, 140] {
            let made = try await get(server + "/insecure/w:\(width)/plain/\(origin.url("/photo.jpg").absoluteString)@png")
            XCTAssertEqual(made.status, 200)
        }
        let prometheus = try await get(server + "/metrics")
        XCTAssertTrue(String(decoding: prometheus.body, as: UTF8.self).contains("webimage_requests_total 3"))
        let metrics = receiver.metrics { $0.contains { $0.metric == "webimage_requests_total" && $0.value >= 3 } }
        let requests = try XCTUnwrap(metrics.last { $0.metric == "webimage_requests_total" }, "\(Set(metrics.map(\.metric)))")
        XCTAssertEqual(requests.value, 3)
        XCTAssertEqual(requests.path, "/v1/metrics")
        XCTAssertEqual(requests.service, "webimage")
        XCTAssertTrue(metrics.contains { $0.metric == "webimage_request_duration_seconds" && $0.value >= 3 }, "the histogram's count")
        let plain = try await serve(["--allow-loopback-sources", "--open-telemetry-enable-metrics"])
        _ = try await get(plain + "/health")
        XCTAssertFalse(receiver.metrics.contains { $0.service != "webimage" }, "without --open-telemetry nothing is exported")
    }
}
