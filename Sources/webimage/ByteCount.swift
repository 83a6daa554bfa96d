/// Byte counts as people read them.
enum ByteCount {
    /// `bytes` in binary units with one decimal ("1.7 MiB"), or as is below 1 KiB ("512 B").
    static func human(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `bytes` both ways: "1.7 MiB (1802240 bytes)".
    static func describe(_ bytes: Int) -> String {
        "\(human(bytes)) (\(bytes) bytes)"
    }
}
