import WebImage
import XCTest

final class OrientationTests: XCTestCase {
    /// A 3 × 2 image whose pixels are numbered 0…5 in their red channel.
    private let stored = PixelBuffer(width: 3, height: 2, bytes: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })

    private func reds(_ p: PixelBuffer) -> [[UInt8]] {
        (0..<p.height).map { y in (0..<p.width).map { x in p[x, y].r } }
    }

    func testEachOrientationTurnsThePixelsUpright() {
        // Stored rows: [0 1 2] / [3 4 5]. The expected upright grids follow the EXIF definitions.
        let expected: [ImageOrientation: [[UInt8]]] = [
            .up: [[0, 1, 2], [3, 4, 5]],
            .upMirrored: [[2, 1, 0], [5, 4, 3]],
            .down: [[5, 4, 3], [2, 1, 0]],
            .downMirrored: [[3, 4, 5], [0, 1, 2]],
            .leftMirrored: [[0, 3], [1, 4], [2, 5]],
            .right: [[3, 0], [4, 1], [5, 2]],
            .rightMirrored: [[5, 2], [4, 1], [3, 0]],
            .left: [[2, 5], [1, 4], [0, 3]],
        ]
        for orientation in ImageOrientation.allCases {
            XCTAssertEqual(reds(stored.applying(orientation)), expected[orientation], "\(orientation)")
        }
    }

    func testEXIFOrientationIsReadInBothByteOrders() {
        func tiff(littleEndian: Bool, value: UInt16) -> [UInt8] {
            func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
            func u32(_ v: UInt32) -> [UInt8] { littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) }
            let header: [UInt8] = littleEndian ? [0x49, 0x49, 0x2A, 0] : [0x4D, 0x4D, 0, 0x2A]
            return header + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) + u32(0)
        }
        XCTAssertEqual(EXIF.orientation(fromTIFF: tiff(littleEndian: true, value: 6)), .right)
        XCTAssertEqual(EXIF.orientation(fromTIFF: tiff(littleEndian: false, value: 8)), .left)
        XCTAssertEqual(EXIF.orientation(fromTIFF: Array("Exif\0\0".utf8) + tiff(littleEndian: true, value: 3)), .down)
        XCTAssertEqual(EXIF.orientation(fromTIFF: tiff(littleEndian: true, value: 9)), .up, "out of range means upright")
        XCTAssertEqual(EXIF.orientation(fromTIFF: Array(tiff(littleEndian: true, value: 6).prefix(12))), .up, "truncated block")
        XCTAssertEqual(EXIF.orientation(fromTIFF: [UInt8]()), .up)
    }
}
