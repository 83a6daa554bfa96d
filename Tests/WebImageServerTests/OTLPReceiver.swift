import Foundation
import WebImageTestSupport

/// A real OpenTelemetry collector's receiving end, of the test's own: a Python HTTP server on
/// a free loopback port that decodes each OTLP/HTTP export (protobuf or JSON) with the
/// `opentelemetry-proto` package (`scripts/test` installs it in `.build/venv`) and prints each
/// span, and each metric's latest sum, it received as a line of JSON. Without the package the test is skipped (or fails under
/// `WEBIMAGE_NO_SKIPS=1`), saying what to install.
final class OTLPReceiver {
    /// One span as the receiver decoded it.
    struct ReceivedSpan: Decodable {
        /// The path the export was posted to.
        let path: String
        /// The resource's `service.name`.
        let service: String?
        /// The trace, span and parent span IDs, in hex; the parent empty for a root.
        let trace: String, span: String, parent: String
        let name: String
        /// OTLP's `SpanKind`: 1 internal, 2 server, 3 client.
        let kind: Int
        /// OTLP's `Status.StatusCode`: 0 unset, 1 ok, 2 error.
        let status: Int
        /// String attributes as they are, integers as their decimal text.
        let attributes: [String: String]
    }

    /// One metric as the receiver decoded it: a counter's or gauge's value (summed over its
    /// data points), a histogram's count.
    struct ReceivedMetric: Decodable {
        /// The path the export was posted to.
        let path: String
        /// The resource's `service.name`.
        let service: String?
        let metric: String
        let value: Double
    }

    private let process: ChildProcess
    /// `http://127.0.0.1:PORT`, the base URL `--otlp-endpoint` takes.
    let endpoint: String

    /// Starts the receiver and waits until it listens.
    init() throws {
        guard let python = Python.interpreter(importing: "opentelemetry.proto.collector.trace.v1.trace_service_pb2") else {
            throw MachineGuard.notInstalled("opentelemetry-proto is not installed (scripts/test installs it in .build/venv)")
        }
        let process = try ChildProcess(python, ["-c", Self.script])
        self.process = process
        var port: Int?
        _ = process.wait(timeout: 30) {
            port = process.outputLines.first.flatMap { line in
                (try? JSONDecoder().decode([String: Int].self, from: Data(line.utf8)))?["port"]
            }
            return port != nil || !process.isRunning
        }
        guard let port else { throw OTLPReceiverError.notListening(process.errorOutput) }
        endpoint = "http://127.0.0.1:\(port)"
    }

    deinit { process.killAndReap() }

    /// The spans received so far.
    var spans: [ReceivedSpan] {
        process.outputLines.dropFirst().compactMap { try? JSONDecoder().decode(ReceivedSpan.self, from: Data($0.utf8)) }
    }

    /// The metrics received so far, the latest export of each name last.
    var metrics: [ReceivedMetric] {
        process.outputLines.dropFirst().compactMap { try? JSONDecoder().decode(ReceivedMetric.self, from: Data($0.utf8)) }
    }

    /// The metrics received once `enough` says they are, or after `timeout` seconds, whatever they are then.
    func metrics(timeout: Double = 20, until enough: ([ReceivedMetric]) -> Bool) -> [ReceivedMetric] {
        _ = process.wait(timeout: timeout) { enough(self.metrics) }
        return metrics
    }

    /// The spans received once `enough` says they are, or after `timeout` seconds, whatever they are then.
    func spans(timeout: Double = 20, until enough: ([ReceivedSpan]) -> Bool) -> [ReceivedSpan] {
        _ = process.wait(timeout: timeout) { enough(self.spans) }
        return spans
    }

    private static let script = """
        import json
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from google.protobuf import json_format
        from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
        from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2

        def value(any_value):
            kind = any_value.WhichOneof("value")
            return str(getattr(any_value, kind)) if kind else ""

        class Receiver(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                metrics = self.path.endswith("/v1/metrics")
                export = (metrics_service_pb2.ExportMetricsServiceRequest() if metrics
                          else trace_service_pb2.ExportTraceServiceRequest())
                if self.headers.get("Content-Type", "").startswith("application/json"):
                    json_format.Parse(body, export)
                else:
                    export.ParseFromString(body)
                for resource_metrics in export.resource_metrics if metrics else []:
                    resource = {a.key: value(a.value) for a in resource_metrics.resource.attributes}
                    for scope_metrics in resource_metrics.scope_metrics:
                        for metric in scope_metrics.metrics:
                            kind = metric.WhichOneof("data")
                            points = getattr(metric, kind).data_points
                            total = sum(p.count if kind == "histogram" else
                                        (p.as_double if p.WhichOneof("value") == "as_double" else p.as_int) for p in points)
                            print(json.dumps({"path": self.path, "service": resource.get("service.name"),
                                              "metric": metric.name, "value": total}), flush=True)
                for resource_spans in ([] if metrics else export.resource_spans):
                    resource = {a.key: value(a.value) for a in resource_spans.resource.attributes}
                    for scope_spans in resource_spans.scope_spans:
                        for span in scope_spans.spans:
                            print(json.dumps({
                                "path": self.path, "service": resource.get("service.name"),
                                "trace": span.trace_id.hex(), "span": span.span_id.hex(), "parent": span.parent_span_id.hex(),
                                "name": span.name, "kind": span.kind, "status": span.status.code,
                                "attributes": {a.key: value(a.value) for a in span.attributes},
                            }), flush=True)
                reply = (metrics_service_pb2.ExportMetricsServiceResponse() if metrics
                         else trace_service_pb2.ExportTraceServiceResponse()).SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *arguments):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        print(json.dumps({"port": server.server_address[1]}), flush=True)
        server.serve_forever()
        """
}

/// Why the receiver did not start.
enum OTLPReceiverError: Error {
    /// It exited or stayed silent; what it wrote to standard error.
    case notListening(String)
}
