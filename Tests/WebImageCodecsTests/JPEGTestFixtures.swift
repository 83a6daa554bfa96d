import Foundation
import WebImage

/// Reads the shared fixtures (`../shared/fixtures`, relative to the package root) for the JPEG tests.
enum JPEGTestFixtures {
    static let root = URL(fileURLWithPath: "../shared/fixtures")

    /// A file below `images/` (`jpeg/pil_hopper.jpg`).
    static func image(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("images").appendingPathComponent(path))
    }

    /// A file below `bench/` (`testjfif_256.jpg`).
    static func bench(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("bench").appendingPathComponent(name))
    }

    /// One `images/manifest.json` entry.
    struct Entry: Decodable {
        var file: String
        var decodes: Bool
        var width: Int?
        var height: Int?
        var orientation: Int?
    }

    /// The manifest entries of the JPEG files.
    static func jpegEntries() throws -> [Entry] {
        struct Manifest: Decodable { var images: [Entry] }
        let data = try Data(contentsOf: root.appendingPathComponent("images/manifest.json"))
        return try JSONDecoder().decode(Manifest.self, from: data).images.filter { $0.file.hasPrefix("jpeg/") }
    }

    /// `data` with the frame header (SOF0/SOF2) claiming `width` x `height`.
    static func patchingFrameSize(_ data: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](data)
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xC0 || marker == 0xC2 {
                bytes[offset + 5] = UInt8(height >> 8); bytes[offset + 6] = UInt8(height & 0xFF)
                bytes[offset + 7] = UInt8(width >> 8); bytes[offset + 8] = UInt8(width & 0xFF)
                return Data(bytes)
            }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        preconditionFailure("no SOF0/SOF2 marker")
    }

    /// Mean absolute difference of two equally sized buffers, over all four channels.
    static func meanAbsoluteError(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.bytes.count == b.bytes.count)
        var total = 0
        for i in a.bytes.indices { total += abs(Int(a.bytes[i]) - Int(b.bytes[i])) }
        return Double(total) / Double(a.bytes.count)
    }
}

/// A reproducible source of random bytes (SplitMix64).
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
