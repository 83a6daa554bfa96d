import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport

/// The fixture photo placed off centre on a flat grey backdrop, for the smart gravity tests:
/// a crop that keeps the photo has many pixels that are not grey, one that misses it has few.
enum OffCentrePhoto {
    /// The backdrop.
    static let grey = RGBA(r: 128, g: 128, b: 128)
    /// The canvas's size.
    static let size = PixelSize(width: 1024, height: 384)
    /// Where the 256 × 192 photo's top-left corner is: the right quarter, where a centred
    /// square crop of the canvas (its columns 320 to 703) does not reach.
    static let origin = (x: 720, y: 96)

    /// The canvas, one frame.
    static func pixels() throws -> PixelBuffer {
        let photo = try ImageCoders(WebImageCodecs.defaultCoders).decode(try Fixtures.benchData("testjfif_256.png")).pixels
        return photo.placed(on: size, at: origin, fill: grey)
    }

    /// How many of `pixels` differ from the backdrop by more than 12 in a channel.
    static func photoPixels(in pixels: PixelBuffer) -> Int {
        var count = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let pixel = pixels[x, y]
                if max(abs(Int(pixel.r) - 128), abs(Int(pixel.g) - 128), abs(Int(pixel.b) - 128)) > 12 { count += 1 }
            }
        }
        return count
    }
}
