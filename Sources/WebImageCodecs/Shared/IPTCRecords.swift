import Foundation
import WebImage

/// The IPTC-IIM fields and the Photoshop resolution a JPEG's APP13 `Photoshop 3.0` segment
/// carries (image resources `0x0404` and `0x03ED`), as imgproxy's `/info` reports them. Every
/// length is checked against the bytes, which are hostile input.
public struct IPTCRecords: Sendable, Equatable {
    /// The application record's (2) datasets by title, each with its values in order; only
    /// ``listTitles`` keep more than the first.
    public var fields: [String: [String]] = [:]
    /// The resolution resource's resolutions (`XResolution`, `YResolution`), in pixels a unit.
    public var resolutions: [String: Double] = [:]
    /// The resolution resource's units (`XResolutionUnit`, `WidthUnit`, …): `inches`, `cm`…
    public var resolutionUnits: [String: String] = [:]

    /// The records of `data` (a JPEG file), or nil when it has no APP13 resources.
    public static func find(in data: Data) -> IPTCRecords? {
        guard ImageFormat(detecting: data) == .jpeg else { return nil }
        guard let resources = data.withUnsafeBytes({ EXIFBlock.jpegSegment(0xED, prefix: Array("Photoshop 3.0\0".utf8), in: $0) }) else {
            return nil
        }
        var records = IPTCRecords()
        var at = 0
        while at + 12 <= resources.count, resources[at..<(at + 4)].elementsEqual("8BIM".utf8) {
            let id = Int(resources[at + 4]) << 8 | Int(resources[at + 5])
            let nameLength = Int(resources[at + 6])
            // The Pascal name is padded to an even length, its length byte included.
            var cursor = at + 6 + nameLength + 1 + ((nameLength + 1) % 2)
            guard cursor + 4 <= resources.count else { break }
            let size = Int(resources[cursor]) << 24 | Int(resources[cursor + 1]) << 16 | Int(resources[cursor + 2]) << 8 | Int(resources[cursor + 3])
            cursor += 4
            guard size >= 0, size <= resources.count - cursor else { break }
            let body = resources[cursor..<(cursor + size)]
            if id == 0x0404 { records.readDatasets(body) }
            if id == 0x03ED { records.readResolution(body) }
            at = cursor + size + size % 2
        }
        return records.fields.isEmpty && records.resolutions.isEmpty ? nil : records
    }

    /// Reads IIM datasets: `0x1C`, record, dataset, a two-byte length (extended lengths skipped).
    private mutating func readDatasets(_ body: ArraySlice<UInt8>) {
        var at = body.startIndex
        while at + 5 <= body.endIndex, body[at] == 0x1C {
            let record = Int(body[at + 1]), dataset = Int(body[at + 2])
            let length = Int(body[at + 3]) << 8 | Int(body[at + 4])
            guard length & 0x8000 == 0, at + 5 + length <= body.endIndex else { return }
            if record == 2, dataset != 0 {
                let text = String(decoding: body[(at + 5)..<(at + 5 + length)], as: UTF8.self)
                let title = Self.titles[dataset] ?? "2:\(dataset)"
                if Self.repeatable.contains(dataset) || fields[title] == nil { fields[title, default: []].append(text) }
            }
            at += 5 + length
        }
    }

    /// Reads Photoshop's ResolutionInfo: 16.16 fixed resolutions with their units.
    private mutating func readResolution(_ body: ArraySlice<UInt8>) {
        guard body.count >= 16 else { return }
        let bytes = Array(body)
        func fixed(_ at: Int) -> Double { Double(Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])) / 65536 }
        func short(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        let units = [1: "inches", 2: "cm"], sizeUnits = [1: "inches", 2: "cm", 3: "points", 4: "picas", 5: "columns"]
        resolutions["XResolution"] = fixed(0)
        resolutions["YResolution"] = fixed(8)
        resolutionUnits["XResolutionUnit"] = units[short(4)] ?? String(short(4))
        resolutionUnits["WidthUnit"] = sizeUnits[short(6)] ?? String(short(6))
        resolutionUnits["YResolutionUnit"] = units[short(12)] ?? String(short(12))
        resolutionUnits["HeightUnit"] = sizeUnits[short(14)] ?? String(short(14))
    }

    /// Datasets that may appear more than once, reported as lists.
    static let repeatable: Set<Int> = [20, 25, 80, 85, 118, 122]

    /// The titles of ``repeatable`` datasets, whose values are lists.
    public static let listTitles = Set(repeatable.compactMap { titles[$0] })

    /// The application record's dataset titles (IPTC-IIM 4.2).
    static let titles: [Int: String] = [
        5: "Name", 7: "Edit Status", 10: "Urgency", 15: "Category", 20: "Supplemental Category", 25: "Keywords",
        40: "Special Instructions", 55: "Date Created", 60: "Time Created", 65: "Originating Program", 80: "By-line",
        85: "By-line Title", 90: "City", 92: "Sub-location", 95: "Province/State", 100: "Country Code", 101: "Country Name",
        103: "Original Transmission Reference", 105: "Headline", 110: "Credit", 115: "Source", 116: "Copyright Notice",
        118: "Contact", 120: "Caption", 122: "Writer/Editor",
    ]
}
