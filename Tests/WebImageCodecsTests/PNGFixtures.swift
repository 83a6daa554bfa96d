import Foundation
import XCTest
import WebImage
@testable import WebImageCodecs

/// The shared fixture corpus, read from `../shared/fixtures` relative to the package root.
enum PNGFixtures {
    static let root = URL(fileURLWithPath: "../shared/fixtures")

    /// One `images/manifest.json` entry: Pillow's facts about a file.
    struct Entry: Decodable {
        let file: String
        let decodes: Bool
        let width: Int?
        let height: Int?
        let frames: Int?
        let loop: Int?
        let durations_ms: [Double?]?
    }

    static func manifest() throws -> [Entry] {
        struct Manifest: Decodable { let images: [Entry] }
        let data = try Data(contentsOf: root.appendingPathComponent("images/manifest.json"))
        return try JSONDecoder().decode(Manifest.self, from: data).images
    }

    /// The bytes of `path` below `fixtures/` (e.g. `images/png/apng_delay.png`).
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(path))
    }

    /// The bytes of `images/png/NAME`.
    static func png(_ name: String) throws -> Data {
        try data("images/png/" + name)
    }

    /// Pillow's frame (`f0` or `last`) of `images/png/NAME`, decoded with our coder (the refs
    /// are plain 8-bit RGBA PNGs).
    static func reference(_ name: String, _ frame: String) throws -> PixelBuffer {
        try PNGCoder().decode(data("images/ref/\(name).\(frame).png"), options: ImageDecodeOptions()).pixels
    }

    /// `bytes` with the CRC of the chunk at `start` (its length field) recomputed.
    static func fixingCRC(_ bytes: [UInt8], chunkAt start: Int) -> [UInt8] {
        var bytes = bytes
        let length = Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        let crc = CRC32.checksum(bytes[start + 4 ..< start + 8 + length])
        for i in 0..<4 { bytes[start + 8 + length + i] = UInt8(crc >> (24 - 8 * i) & 0xFF) }
        return bytes
    }

    /// `value` written big-endian at `offset` of `bytes`.
    static func patching(_ bytes: [UInt8], uint32 value: UInt32, at offset: Int) -> [UInt8] {
        var bytes = bytes
        for i in 0..<4 { bytes[offset + i] = UInt8(value >> (24 - 8 * i) & 0xFF) }
        return bytes
    }
}

/// Asserts that `actual` shows the same picture as `expected`: equal size and alpha, equal
/// colour wherever the pixel is not fully transparent.
func assertSamePixels(_ actual: PixelBuffer, _ expected: PixelBuffer, _ message: String,
                      file: StaticString = #filePath, line: UInt = #line) {
    guard actual.width == expected.width, actual.height == expected.height else {
        return XCTFail("\(message): size \(actual.width)x\(actual.height) != \(expected.width)x\(expected.height)",
                       file: file, line: line)
    }
    var differing = 0
    for i in stride(from: 0, to: actual.bytes.count, by: 4) {
        let alpha = expected.bytes[i + 3]
        let channels = alpha == 0 ? 3..<4 : 0..<4
        if channels.contains(where: { actual.bytes[i + $0] != expected.bytes[i + $0] }) { differing += 1 }
    }
    XCTAssertEqual(differing, 0, "\(message): pixels differ", file: file, line: line)
}
