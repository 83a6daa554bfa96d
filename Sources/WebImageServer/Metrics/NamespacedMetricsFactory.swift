import Metrics

/// A swift-metrics factory that renames, then hands every metric to another: a label starting
/// with `webimage_` (the server's names, and those of the modules it carries) starts with the
/// configured namespace instead (imgproxy's `IMGPROXY_PROMETHEUS_NAMESPACE`); other labels pass as
/// they are.
public struct NamespacedMetricsFactory: MetricsFactory {
    /// The prefix every name here is written with.
    public static let ownNamespace = "webimage"

    /// Where the renamed metrics are made.
    public let base: any MetricsFactory
    /// What replaces ``ownNamespace``.
    public let namespace: String

    /// A factory making `base`'s metrics with `namespace` in place of `webimage`.
    public init(_ base: any MetricsFactory, namespace: String) {
        self.base = base
        self.namespace = namespace
    }

    /// `base` itself when `namespace` is the server's own, else a factory renaming into it.
    public static func wrapping(_ base: any MetricsFactory, namespace: String) -> any MetricsFactory {
        namespace == ownNamespace ? base : NamespacedMetricsFactory(base, namespace: namespace)
    }

    /// `label` in ``namespace``.
    public func renamed(_ label: String) -> String {
        let prefix = Self.ownNamespace + "_"
        guard label.hasPrefix(prefix) else { return label }
        return namespace + "_" + label.dropFirst(prefix.count)
    }

    /// The base's counter, its label renamed.
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        base.makeCounter(label: renamed(label), dimensions: dimensions)
    }

    /// The base's floating point counter, its label renamed.
    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        base.makeFloatingPointCounter(label: renamed(label), dimensions: dimensions)
    }

    /// The base's meter, its label renamed.
    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        base.makeMeter(label: renamed(label), dimensions: dimensions)
    }

    /// The base's recorder, its label renamed.
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        base.makeRecorder(label: renamed(label), dimensions: dimensions, aggregate: aggregate)
    }

    /// The base's timer, its label renamed.
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        base.makeTimer(label: renamed(label), dimensions: dimensions)
    }

    /// Hands the counter back to the base.
    public func destroyCounter(_ handler: any CounterHandler) {
        base.destroyCounter(handler)
    }

    /// Hands the floating point counter back to the base.
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        base.destroyFloatingPointCounter(handler)
    }

    /// Hands the meter back to the base.
    public func destroyMeter(_ handler: any MeterHandler) {
        base.destroyMeter(handler)
    }

    /// Hands the recorder back to the base.
    public func destroyRecorder(_ handler: any RecorderHandler) {
        base.destroyRecorder(handler)
    }

    /// Hands the timer back to the base.
    public func destroyTimer(_ handler: any TimerHandler) {
        base.destroyTimer(handler)
    }
}
