import Foundation
import Logging
import WebImage

/// Every setting of `webimage serve` and its default, in one place (also named
/// ``ImageServer/Configuration``).
///
/// The settings are grouped by the part of the server that reads them (``listening``,
/// ``urls``, ``sources``, ``limits``, ``output``, ``formats``, ``answers``, ``overlays``,
/// ``caches``, ``objectStorage``, ``logs``, ``metrics``, ``telemetry``): the assembly hands each part its own group, so
/// no part reads another's settings.
///
/// A configuration starts from the defaults written in the groups; ``init(environment:)`` lays the
/// environment over them (imgproxy's `IMGPROXY_*` names where imgproxy has the setting,
/// `WEBIMAGE_*` otherwise), and `webimage serve` lays its flags over that. Each setting is
/// described once, in ``settings``, which reads its text from either place with the same
/// checks and gives `serve --help` and the Configuration article's table (WebImageServer.docc) their words and defaults.
public struct ServerConfiguration: Sendable, Equatable {
    /// Where and how connections are taken: the address, the deadlines, the connection limit, the path
    /// prefix and CORS (the HTTP application and the responder's front).
    public var listening = ListeningSettings()
    /// How URLs are read and checked: the forms answered, imgproxy's and thumbor's signing, presets,
    /// and the rewriting of source URLs (the router and its parsers).
    public var urls = URLSettings()
    /// Which sources are fetched and how: the allowed prefixes and addresses, local files, the
    /// download's deadline and redirects (the downloader and the source policy).
    public var sources = SourceSettings()
    /// How much work a request may cause: the source and result sizes, frames, the processing slots and
    /// their queue (the processor).
    public var limits = LimitSettings()
    /// What results are made of by default: quality, the formats answered unprocessed, SVG and
    /// copyright tags (the URL parsers' defaults and the encoder).
    public var output = OutputSettings()
    /// Which formats a client's `Accept` chooses, and in what order (format negotiation).
    public var formats = FormatSettings()
    /// How answers may be cached by clients: their lifetime and validators (the answers the responder
    /// builds).
    public var answers = AnswerSettings()
    /// The images the server itself needs: the watermark and the fallback image (loaded once at start).
    public var overlays = OverlaySettings()
    /// Where sources and results are kept: the local disk and a Redis shared by instances.
    public var caches = CacheSettings()
    /// S3-compatible object storage: `s3://` sources and a result tier shared by instances.
    public var objectStorage = ObjectStorageSettings()
    /// What is logged and how soon it is written.
    public var logs = LogSettings()
    /// How metrics are named and where they are scraped.
    public var metrics = MetricsSettings()
    /// How requests are traced: OpenTelemetry over OTLP.
    public var telemetry = TelemetrySettings()

    /// The `thumbor.conf` whose settings were read under the environment's and the flags'
    /// (see ``ConfigurationReading``), or nil.
    public var thumborConfig: String?
    /// The `.env` file whose variables were read over the environment's (see
    /// ``ConfigurationReading``), or nil.
    public var environmentFile: String?
    /// The AWS stores of more variables (see ``EnvironmentStores``).
    public var environmentStores = EnvironmentStores()

    /// The subfolders of ``CacheSettings/cacheDir`` that hold the source and the result disk caches.
    public static let cacheSubfolders = (sources: "sources", results: "results")

    /// The defaults.
    public init() {}

    /// The defaults with the settings `environment` gives laid over them; throws
    /// ``ConfigurationError`` naming the first variable whose value is not valid, or a variable
    /// of imgproxy's this server would have to ignore while it changes answers (see
    /// ``ForeignVariable``). Empty variables count as unset. A `thumbor.conf` its
    /// `WEBIMAGE_THUMBOR_CONFIG` names is read under it (see ``ConfigurationReading``).
    public init(environment: [String: String]) throws(ConfigurationError) {
        self = try ConfigurationReading(environment: environment, arguments: []).configuration
    }

    /// Sets the setting whose flag is `flag` (`quality`) from `text`, as given on the command
    /// line; throws ``ConfigurationError`` for a value it does not take.
    public mutating func set(flag: String, to text: String) throws(ConfigurationError) {
        guard let setting = Self.settings.first(where: { $0.flag == flag }) else {
            throw ConfigurationError(source: "--\(flag)", reason: "is not a setting", isUsage: true)
        }
        try setting.apply(text, to: &self, from: "--\(flag)")
    }
}
