/// The demo's summary: per phase, how many loads, where they came from, their median and 95th
/// percentile times, and the requests the server answered with the bytes it sent.
struct DemoTable {
    let phases: [DemoPhase]

    /// The table as aligned text, a header and a rule first.
    func render() -> String {
        let header = ["phase", "loads", "source", "median", "p95", "requests", "downloaded"]
        let rows = phases.map { phase in
            [phase.name, "\(phase.times.count)", phase.sourceSummary, Self.ms(phase.milliseconds(at: 0.5)),
             Self.ms(phase.milliseconds(at: 0.95)), "\(phase.serverRequests)", ByteCount.human(phase.downloadedBytes)]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                let (cell, width) = pair
                let pad = String(repeating: " ", count: width - cell.count)
                return index == 0 || index == 2 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// Milliseconds with a precision that suits their size.
    static func ms(_ value: Double) -> String {
        value < 1 ? "\((value * 1000).rounded() / 1000) ms" : value < 100 ? "\((value * 10).rounded() / 10) ms" : "\(Int(value)) ms"
    }
}
