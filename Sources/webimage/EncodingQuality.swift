import ArgumentParser

/// `--quality Q` for lossy output: 0 to 100 as imgproxy, thumbor and cwebp take it; a fraction
/// below 1 (`0.85`) is read on the 0–1 scale earlier versions used, so `0.85` and `85` agree.
/// `1` therefore means 1 %, not 100 %.
struct EncodingQuality: ExpressibleByArgument, CustomStringConvertible {
    /// The quality as ``ImageEncodeOptions`` takes it, from 0 to 1.
    let fraction: Double

    /// A quality of `percent` (0 to 100).
    init(percent: Double) {
        fraction = percent / 100
    }

    init?(argument: String) {
        guard let value = Double(argument), value.isFinite, (0...100).contains(value) else { return nil }
        fraction = value < 1 && value > 0 ? value : value / 100
    }

    /// The quality on the 0–100 scale: what `--help` shows as the default.
    var description: String {
        let percent = fraction * 100
        return percent == percent.rounded() ? String(Int(percent)) : String(percent)
    }

    var defaultValueDescription: String { description }
}
