import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTelemetry

/// `webimage serve`: an imgproxy-compatible image server on WebImage's pipeline.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve images resized and converted from imgproxy (or thumbor) URLs.",
        discussion: """
            URLs are imgproxy's: /SIGNATURE/OPTIONS/plain/SOURCE-URL[@EXT] or \
            /SIGNATURE/OPTIONS/BASE64-SOURCE-URL[.EXT]. With a key and salt the signature is \
            checked (403 when wrong); without, the signature segment may be anything. Sources \
            whose addresses are loopback or private are refused unless allowed, checked on the \
            address connected to and on every redirect. /health answers 200; /metrics gives \
            Prometheus metrics. SIGTERM or SIGINT lets requests under way finish, then exits 0. \
            Every option also comes from its environment variable (imgproxy's names where imgproxy \
            has the setting; lists comma-separated); a flag wins over its variable. With --redis, \
            instances share source bytes and results through Redis (memory → local disk → Redis → \
            origin); when Redis is down or slow, requests go on from the local caches and the origin. \
            With --use-s3, s3://BUCKET/KEY sources are read from S3-compatible object storage \
            (--s3-endpoint for MinIO, Ceph RGW, R2, GCS); with --result-storage s3://BUCKET/PREFIX, \
            results are shared through a bucket too, below Redis, written in the background.
            thumbor's URLs are answered too (--url-format both, the default): /unsafe/[AxB:CxD/]\
            [fit-in/][-]Wx[-]H/[halign/][valign/][smart/][filters:…/]IMAGE-URL, signed with \
            --thumbor-key (or THUMBOR_SECURITY_KEY) in place of unsafe. A path is thumbor's when \
            its first segment is unsafe or a 28-character signature ending in =; any key set \
            means every URL must be signed.
            Without arguments it listens on 127.0.0.1:8080, serves local:/// sources from the \
            current folder, unsigned, and prints an example URL:
              cd ./photos && webimage serve
              curl -o cat.webp http://127.0.0.1:8080/insecure/rs:fit:300:300/plain/local:///cat.jpg@webp
            """ + settingsHelp)

    /// The settings given as flags, read by ``ImageServer/Configuration/settings``: every
    /// argument ArgumentParser does not take itself (it takes `--help`).
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Settings, as listed under SETTINGS", valueName: "setting"))
    var settings: [String] = []

    /// Print every setting's effective value and where it came from, keys and passwords masked, and exit.
    @Flag(help: "Print every setting as the environment and flags give it (keys and passwords masked), and exit.")
    var printConfig = false

    /// Refuses a command line of the wrong shape (a flag that is no setting, a value missing)
    /// with the usage, as ArgumentParser refuses its own; a wrong value is reported by `run`,
    /// with the environment read.
    func validate() throws {
        do throws(ConfigurationError) {
            try ImageServer.Configuration.checkShape(of: settings)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        MallocTuning.returnLargeBlocks(environment: ProcessInfo.processInfo.environment)
        WebImageCommand.prepareCoders()
        // The settings name the AWS stores of more variables; read with those, they are read again.
        var environment = ProcessInfo.processInfo.environment
        var reading = try await CommandFailure.reporting { try ConfigurationReading(environment: environment, arguments: settings) }
        if reading.configuration.environmentStores.namesAny {
            environment = try await AWSEnvironment.loaded(over: environment, for: reading.configuration)
            reading = try await CommandFailure.reporting { [environment, settings] in
                try ConfigurationReading(environment: environment, arguments: settings)
            }
        }
        // What the environment or a thumbor.conf sets that no setting here reads is said, never dropped unseen.
        for warning in reading.warnings {
            FileHandle.standardError.write(Data("webimage serve: warning: \(warning)\n".utf8))
        }
        if printConfig {
            FileHandle.standardOutput.write(Data(reading.effectiveSettings.map { $0.line + "\n" }.joined().utf8))
            return
        }
        // local:/// sources come from the current folder when no root is set and the server listens on loopback.
        let configuration = reading.configuration.servingLocalSources(from: FileManager.default.currentDirectoryPath)
        // One line a request: formatted once, written to standard error in batches (within a
        // tenth of a second by default, and all of them before the command returns).
        let logLines = LogLineBuffer(interval: .milliseconds(Int((configuration.logs.logInterval * 1000).rounded())))
        defer { logLines.flush() }
        // With --syslog, each line at or above --syslog-level goes to the daemon too; one that
        // cannot be reached now stops the start.
        let logs = configuration.logs
        let syslog = logs.syslogEnabled ? try await CommandFailure.reporting {
            try SyslogWriter(network: logs.syslogNetwork, address: logs.syslogAddress, tag: logs.syslogTag, level: logs.syslogLevel)
        } : nil
        defer { syslog?.flush() }
        LoggingSystem.bootstrap { label in
            var handler = BufferedLogHandler(label: label, buffer: logLines)
            handler.logLevel = configuration.logs.logLevel
            handler.syslog = syslog
            handler.format = configuration.logs.logFormat ?? .forStandardError
            return handler
        }
        // Once per process, before any handle exists: everything counted through swift-metrics,
        // in any module, lands in this registry, which /metrics shows.
        let registry = PrometheusCollectorRegistry()
        let exported = configuration.telemetry.exportsMetrics
            ? try await CommandFailure.reporting { try OpenTelemetryMetrics(configuration.telemetry) } : nil
        let prometheus = PrometheusMetricsFactory(registry: registry)
        MetricsSystem.bootstrap(NamespacedMetricsFactory.wrapping(
            exported.map { MultiplexMetricsHandler(factories: [prometheus, $0.factory]) } ?? prometheus, namespace: configuration.metrics.namespace))
        let tracing = configuration.telemetry.enabled
            ? try await CommandFailure.reporting { try OpenTelemetryTracing(configuration.telemetry) } : nil
        let tier = try await CommandFailure.reporting { try SharedTier(configuration) }
        let storage = try await CommandFailure.reporting {
            try await ObjectStorageTier(configuration, environment: environment, tracer: tracing?.tracer)
        }
        let extensions = ImageServer.Extensions(
            sharedSources: tier?.sources, sharedResults: [tier?.results as (any ImageCaching)?, storage?.results].compactMap { $0 },
            loaders: [storage?.loader as (any ImageLoader)?].compactMap { $0 }, metricsRegistry: registry,
            exportedMetricsFactory: exported?.factory, tracer: tracing?.tracer, services: [tracing?.service, exported?.service].compactMap { $0 })
        let server = try await CommandFailure.reporting { try await ImageServer(configuration: configuration, extensions: extensions) }
        do {
            try await server.run { port in
                let base = server.listening.socketPath.map(ServeExample.baseURL(socketPath:))
                    ?? ServeExample.baseURL(host: server.host, port: port)
                var lines = "webimage serve: listening on \(base)\n"
                if server.listening.socketPath == nil, let example = ServeExample(responder: server.responder, host: server.host, port: port) {
                    lines += "webimage serve: example: \(example.url)\n"
                }
                FileHandle.standardOutput.write(Data(lines.utf8))
            } onMetricsListening: { port in
                let url = ServeExample.baseURL(host: server.responder.metricsAddress?.host ?? server.host, port: port)
                FileHandle.standardOutput.write(Data("webimage serve: metrics on \(url)/metrics\n".utf8))
            }
        } catch let error as ImageServerStartError {
            await shutDown(server, storage: storage, tier: tier)
            FileHandle.standardError.write(Data("webimage: \(error)\n".utf8))
            throw ExitCode.failure
        } catch {
            await shutDown(server, storage: storage, tier: tier)
            throw error
        }
        await shutDown(server, storage: storage, tier: tier)
    }

    /// Closes what `server` and the tiers opened, once it has stopped.
    private func shutDown(_ server: ImageServer, storage: ObjectStorageTier?, tier: SharedTier?) async {
        try? await server.shutdown()
        await storage?.shutdown()
        await tier?.client.close()
    }
}
