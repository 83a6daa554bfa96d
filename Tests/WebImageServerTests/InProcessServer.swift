import Foundation
import Locking
import Logging
import Prometheus
import ServiceLifecycle
import WebImageServer
import WebImageTelemetry

/// `webimage serve` assembled in the test's own process: the configuration read from the
/// same flags and variables by ``ImageServer/Configuration/init(environment:arguments:)``, the
/// server made by ``ImageServer/init(configuration:extensions:)`` with a Prometheus registry of
/// its own (so `/metrics` counts this server only), its request lines written as they are
/// logged to a file, listening on a real loopback port. What only a process shows (signals,
/// exit codes, standard output) stays with ``ServeProcess``.
final class InProcessServer: Sendable {
    /// Its base URL, `http://127.0.0.1:PORT`.
    let baseURL: String
    /// The base URL of its metrics' own listener, when `--prometheus-bind` gave one.
    let metricsURL: String?
    /// Where its log lines go, one a request.
    let logFile: URL
    private let server: ImageServer
    private let running: Task<Void, any Error>
    private let group: ServiceGroup
    private let logDescriptor: Int32
    /// Set when the server has stopped serving, for whatever reason.
    private let stopped: StopFlag

    /// Whether it still serves: it has not stopped, by ``stop()`` or an error.
    var isServing: Bool { !stopped.isSet.withLock { $0 } }

    /// What the server logged so far, as `webimage serve` writes it to standard error.
    var errorOutput: String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Assembles the server `arguments` and `environment` describe (nothing of this process's
    /// environment), serving `local:///` from the current folder as `webimage serve` does,
    /// starts it and returns once it listens; throws what stopped it otherwise.
    static func start(_ arguments: [String], environment: [String: String], logFile: URL) async throws -> InProcessServer {
        let configuration = try ImageServer.Configuration(environment: environment, arguments: arguments)
            .servingLocalSources(from: FileManager.default.currentDirectoryPath)
        let tracing = configuration.telemetry.enabled ? try OpenTelemetryTracing(configuration.telemetry) : nil
        let exported = configuration.telemetry.exportsMetrics ? try OpenTelemetryMetrics(configuration.telemetry) : nil
        let descriptor = open(logFile.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw InProcessServerError.logFile(logFile.path) }
        var handler = BufferedLogHandler(label: "webimage.serve", buffer: LogLineBuffer(descriptor: descriptor, interval: .zero))
        handler.logLevel = configuration.logs.logLevel
        handler.format = configuration.logs.logFormat ?? .pretty
        let extensions = ImageServer.Extensions(metricsRegistry: PrometheusCollectorRegistry(), exportedMetricsFactory: exported?.factory,
                                                logger: Logger(label: "webimage.serve") { _ in handler },
                                                tracer: tracing?.tracer, services: [tracing?.service, exported?.service].compactMap { $0 })
        let server: ImageServer
        do {
            server = try await ImageServer(configuration: configuration, extensions: extensions)
        } catch {
            close(descriptor)
            throw error
        }
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let (metricsPorts, metricsListening) = AsyncStream.makeStream(of: Int.self)
        let stopped = StopFlag()
        // No signals: a test process holds many servers; ``stop()`` shuts this one down.
        let services = server.services(onListening: { listening.yield($0) }, onMetricsListening: { metricsListening.yield($0) })
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services.map { .init(service: $0) }, logger: Logger(label: "webimage.test.serve")))
        let running = Task {
            defer {
                stopped.isSet.withLock { $0 = true }
                listening.finish()
                metricsListening.finish()
            }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        var metricsIterator = metricsPorts.makeAsyncIterator()
        let port = await iterator.next()
        let metricsPort = server.responder.metricsAddress == nil ? nil : await metricsIterator.next()
        guard let port, server.responder.metricsAddress == nil || metricsPort != nil else {
            try? await server.shutdown()
            close(descriptor)
            try await running.value
            throw InProcessServerError.notListening
        }
        return InProcessServer(baseURL: Self.baseURL(server.host, port),
                               metricsURL: metricsPort.map { Self.baseURL(server.responder.metricsAddress?.host ?? server.host, $0) },
                               logFile: logFile, server: server, running: running,
                               group: group, logDescriptor: descriptor, stopped: stopped)
    }

    /// `http://HOST:PORT`, an IPv6 host in brackets.
    private static func baseURL(_ host: String, _ port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    private init(baseURL: String, metricsURL: String?, logFile: URL, server: ImageServer, running: Task<Void, any Error>,
                 group: ServiceGroup, logDescriptor: Int32, stopped: StopFlag) {
        self.group = group
        self.baseURL = baseURL
        self.metricsURL = metricsURL
        self.logFile = logFile
        self.server = server
        self.running = running
        self.logDescriptor = logDescriptor
        self.stopped = stopped
    }

    /// Stops serving as SIGTERM stops `webimage serve`, letting requests under way finish for
    /// up to 10 seconds (then they are cancelled), then releases what the assembly opened.
    func stop() async {
        await group.triggerGracefulShutdown()
        let running = running
        await withTaskGroup(of: Void.self) { waits in
            waits.addTask { _ = await running.result }
            waits.addTask {
                if (try? await Task.sleep(for: .seconds(10))) != nil { running.cancel() }
            }
            await waits.next()
            waits.cancelAll()
        }
        _ = await running.result
        try? await server.shutdown()
        close(logDescriptor)
    }
}

/// Whether an in-process server has stopped, set by the task that runs it.
final class StopFlag: Sendable {
    let isSet = Mutex(false)
}

/// Why a test's in-process server did not start.
enum InProcessServerError: Error {
    /// The log file could not be opened.
    case logFile(String)
    /// The server stopped before it listened, without an error.
    case notListening
}
