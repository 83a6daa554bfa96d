extension ServerConfiguration {
    /// The variables imgproxy 4 reads that no setting here reads, by name, each with what
    /// `webimage serve` does when it is set: a warning for those that change nothing an answer
    /// or its safety depends on, an error for the others unless they hold imgproxy's default.
    /// With the settings' variables they are every variable imgproxy reads (a test checks the
    /// list taken from imgproxy's sources); a setting made here leaves this list.
    public static let foreignVariables: [ForeignVariable] = [
        ignored("IMGPROXY_ABS_ALLOWED_BUCKETS", "only read when IMGPROXY_USE_ABS=true, which is refused"),
        ignored("IMGPROXY_ABS_DENIED_BUCKETS", "only read when IMGPROXY_USE_ABS=true, which is refused"),
        ignored("IMGPROXY_ABS_ENDPOINT", "only read when IMGPROXY_USE_ABS=true, which is refused"),
        ignored("IMGPROXY_ABS_KEY", "only read when IMGPROXY_USE_ABS=true, which is refused"),
        ignored("IMGPROXY_ABS_NAME", "only read when IMGPROXY_USE_ABS=true, which is refused"),
        ignored("IMGPROXY_AIRBRAKE_ENVIRONMENT", "no Airbrake client"),
        ignored("IMGPROXY_AIRBRAKE_PROJECT_ID", "no Airbrake client"),
        ignored("IMGPROXY_AIRBRAKE_PROJECT_KEY", "no Airbrake client"),
        refused("IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", default: "false", "source address filter: allowing link-local sources changes fetch results and security"),
        ignored("IMGPROXY_BUGSNAG_KEY", "no Bugsnag client"),
        ignored("IMGPROXY_BUGSNAG_STAGE", "no Bugsnag client"),
        ignored("IMGPROXY_CLOUD_WATCH_NAMESPACE", "no CloudWatch metrics"),
        ignored("IMGPROXY_CLOUD_WATCH_REGION", "no CloudWatch metrics"),
        ignored("IMGPROXY_CLOUD_WATCH_SERVICE_NAME", "no CloudWatch metrics"),
        ignored("IMGPROXY_DATADOG_ENABLE", "no Datadog agent"),
        ignored("IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS", "no Datadog agent"),
        ignored("IMGPROXY_DATADOG_PROPAGATE_EXTERNAL", "no Datadog agent"),
        refused("IMGPROXY_DEVELOPMENT_ERRORS_MODE", default: "false", "HTML error pages with details are not produced here"),
        ignored("IMGPROXY_ENV_GCP_KEY", "only read when IMGPROXY_ENV_GCP_SECRET_ID is set, which is refused"),
        refused("IMGPROXY_ENV_GCP_SECRET_ID", default: "", "loading config from GCP Secret Manager is not done; settings would be missing"),
        ignored("IMGPROXY_ENV_GCP_SECRET_PROJECT_ID", "only read when IMGPROXY_ENV_GCP_SECRET_ID is set, which is refused"),
        ignored("IMGPROXY_ENV_GCP_SECRET_VERSION_ID", "only read when IMGPROXY_ENV_GCP_SECRET_ID is set, which is refused"),
        ignored("IMGPROXY_FAIL_ON_DEPRECATION", "development aid; only decides whether deprecated names abort start-up"),
        ignored("IMGPROXY_FREE_MEMORY_INTERVAL", "Go runtime memory release"),
        ignored("IMGPROXY_GCS_ALLOWED_BUCKETS", "only read when IMGPROXY_USE_GCS=true, which is refused"),
        ignored("IMGPROXY_GCS_DENIED_BUCKETS", "only read when IMGPROXY_USE_GCS=true, which is refused"),
        ignored("IMGPROXY_GCS_ENDPOINT", "only read when IMGPROXY_USE_GCS=true, which is refused"),
        ignored("IMGPROXY_GCS_KEY", "only read when IMGPROXY_USE_GCS=true, which is refused"),
        ignored("IMGPROXY_HONEYBADGER_ENV", "no Honeybadger client"),
        ignored("IMGPROXY_HONEYBADGER_KEY", "no Honeybadger client"),
        ignored("IMGPROXY_LOG_MEM_STATS", "Go/libvips memory stats logging"),
        ignored("IMGPROXY_NEW_RELIC_APP_NAME", "no New Relic agent"),
        ignored("IMGPROXY_NEW_RELIC_KEY", "no New Relic agent"),
        ignored("IMGPROXY_NEW_RELIC_LABELS", "no New Relic agent"),
        ignored("IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL", "no New Relic agent"),
        ignored("IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT", "no client certificate is shown to the OpenTelemetry collector here"),
        ignored("IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY", "no client certificate is shown to the OpenTelemetry collector here"),
        ignored("IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS", "logs are written to standard error, not exported over OTLP"),
        ignored("IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME", "logs are not exported over OTLP"),
        ignored("IMGPROXY_OPEN_TELEMETRY_SERVER_CERT", "the collector's certificate is checked against the system's roots (OTEL_EXPORTER_OTLP_CERTIFICATE names a file of them)"),
        ignored("IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR", "trace IDs are random W3C ones, not X-Ray's"),
        ignored("IMGPROXY_PNG_UNLIMITED", "a libvips loader limit; the PNG decoder here keeps its own limits"),
        ignored("IMGPROXY_PPROF_BIND", "Go pprof server, only in pprof build tag"),
        refused("IMGPROXY_PRESERVE_HDR", default: "false", "HDR preservation changes output pixels"),
        ignored("IMGPROXY_REPORT_DOWNLOADING_ERRORS", "only marks errors for error reporters, which this server has none of"),
        ignored("IMGPROXY_REPORT_IO_ERRORS", "only reports failed writes to error reporters, which this server has none of"),
        refused("IMGPROXY_S3_ACCESS_POINTS", default: "", "bucket to access-point mapping changes which objects are fetched"),
        refused("IMGPROXY_S3_USE_DECRYPTION_CLIENT", default: "false", "S3 client-side decryption is not supported"),
        refused("IMGPROXY_SANITIZE_SVG", default: "true", "SVG is always sanitized here; turning it off changes output"),
        ignored("IMGPROXY_SENTRY_DSN", "no Sentry client"),
        ignored("IMGPROXY_SENTRY_ENVIRONMENT", "no Sentry client"),
        ignored("IMGPROXY_SENTRY_RELEASE", "no Sentry client"),
        ignored("IMGPROXY_SVG_UNLIMITED", "a libvips loader limit; SVG sources here are held to their own limits"),
        ignored("IMGPROXY_SWIFT_ALLOWED_BUCKETS", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_API_KEY", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_AUTH_URL", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_AUTH_VERSION", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_CONNECT_TIMEOUT_SECONDS", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_DENIED_BUCKETS", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_DOMAIN", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_TENANT", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_TIMEOUT_SECONDS", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_SWIFT_USERNAME", "only read when IMGPROXY_USE_SWIFT=true, which is refused"),
        ignored("IMGPROXY_TIFF_UNLIMITED", "a libvips loader limit; the TIFF decoder here keeps its own limits"),
        refused("IMGPROXY_USE_ABS", default: "false", "no Azure Blob storage; abs:// sources would fail"),
        refused("IMGPROXY_USE_GCS", default: "false", "no Google Cloud Storage; gs:// sources would fail"),
        refused("IMGPROXY_USE_SWIFT", default: "false", "no OpenStack Swift storage; swift:// sources would fail"),
        ignored("IMGPROXY_VIPS_CACHE_TRACE", "libvips internals"),
        ignored("IMGPROXY_VIPS_LEAK_CHECK", "libvips internals"),
    ]

    private static func ignored(_ name: String, _ reason: String) -> ForeignVariable {
        ForeignVariable(name: name, handling: .ignored, reason: reason)
    }

    private static func refused(_ name: String, default defaultText: String, _ reason: String) -> ForeignVariable {
        ForeignVariable(name: name, handling: .refused(default: defaultText), reason: reason)
    }
}
