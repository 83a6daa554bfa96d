import Foundation
import WebImage

extension ProcessingTransformer {
    /// thumbor's `meta` answer for `image`, in the shape and key order thumbor's `JSONEngine`
    /// writes (Python's `json.dumps`: `", "` and `": "` between items, non-ASCII escaped):
    /// `{"thumbor": {"source": {"url", "width", "height", "frameCount"}, "operations": […],
    /// "target": {"width", "height"}, "focal_points": […]}}`, wrapped in `callback(…);` for JSONP.
    ///
    /// The operations are the ones this server makes, in thumbor's terms: the trim and the crop
    /// as `crop` (left, top, right, bottom of the image before them), the fill crop as a `crop`
    /// of the unscaled image followed by the `resize`, a resize alone otherwise, then the
    /// `flip_horizontally` and `flip_vertically` of `-W` and `-H`. `source` is the upright
    /// source's size; the target is the size of the last crop or resize (before `fill` pads it).
    func metadata(of image: Image, meta: ProcessingMeta) -> Data {
        var cropOrigin: (x: Int, y: Int)?, fillOrigin: (x: Int, y: Int)?
        let prepared = prepared(image.pixels, orientation: image.orientation, trims: image.frames.count == 1,
                                smartOrigin: &cropOrigin)
        var operations: [String] = []
        for rect in [prepared.trimmed, prepared.cropped].compactMap({ $0 }) {
            operations.append(Self.crop(left: rect.x, top: rect.y, right: rect.x + rect.width, bottom: rect.y + rect.height))
        }
        let before = prepared.pixels.size
        let plan = ResizePlan(options: options, source: before)
        if let cut = resized(prepared, plan: plan, smartOrigin: &fillOrigin).cut {
            // The cut in the scaled image, measured in the image before the scale, as thumbor cuts first.
            let scaleX = Double(plan.scaled.width) / Double(before.width), scaleY = Double(plan.scaled.height) / Double(before.height)
            func unscaled(_ value: Int, _ scale: Double, _ side: Int) -> Int { min(Int((Double(value) / scale).rounded()), side) }
            operations.append(Self.crop(left: unscaled(cut.x, scaleX, before.width), top: unscaled(cut.y, scaleY, before.height),
                                        right: unscaled(cut.x + plan.cropped.width, scaleX, before.width),
                                        bottom: unscaled(cut.y + plan.cropped.height, scaleY, before.height)))
        }
        if plan.cropped != before {
            operations.append(#"{"type": "resize", "width": \#(plan.cropped.width), "height": \#(plan.cropped.height)}"#)
        }
        if meta.flipsHorizontally { operations.append(#"{"type": "flip_horizontally"}"#) }
        if meta.flipsVertically { operations.append(#"{"type": "flip_vertically"}"#) }
        let source = #"{"url": \#(Self.quoted(meta.imageURL)), "width": \#(image.pixelWidth), "height": \#(image.pixelHeight), "#
            + #""frameCount": \#(image.frames.count)}"#
        let json = #"{"thumbor": {"source": \#(source), "operations": [\#(operations.joined(separator: ", "))], "#
            + #""target": {"width": \#(plan.cropped.width), "height": \#(plan.cropped.height)}, "#
            + #""focal_points": [\#(focalPoints(after: prepared).joined(separator: ", "))]}}"#
        return Data((meta.callback.map { "\($0)(\(json));" } ?? json).utf8)
    }

    /// The focal points thumbor lists: the focal regions inside the crop, moved with it, or
    /// the point the alignment names (a corner, an edge's middle or the centre of the image).
    private func focalPoints(after prepared: Prepared) -> [String] {
        let crop = prepared.cropped ?? PixelRect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))
        let regions = options.focalRegions.compactMap { region -> String? in
            let x = region.x + region.width / 2, y = region.y + region.height / 2
            guard x >= crop.x, x <= crop.x + crop.width, y >= crop.y, y <= crop.y + crop.height else { return nil }
            return #"{"x": \#(x - (prepared.cropped?.x ?? 0)), "y": \#(y - (prepared.cropped?.y ?? 0)), "#
                + #""z": \#(region.width * region.height), "height": \#(region.height), "width": \#(region.width), "#
                + #""origin": "Explicit"}"#
        }
        guard regions.isEmpty else { return regions }
        let kind = options.gravity.kind
        let across: Double = [.west, .northWest, .southWest].contains(kind) ? 0 : [.east, .northEast, .southEast].contains(kind) ? 1 : 0.5
        let down: Double = [.north, .northWest, .northEast].contains(kind) ? 0 : [.south, .southWest, .southEast].contains(kind) ? 1 : 0.5
        let x = Int(Double(prepared.pixels.width) * across), y = Int(Double(prepared.pixels.height) * down)
        return [#"{"x": \#(x), "y": \#(y), "z": 1.0, "height": 1, "width": 1, "origin": "alignment"}"#]
    }

    /// A `crop` operation.
    private static func crop(left: Int, top: Int, right: Int, bottom: Int) -> String {
        #"{"type": "crop", "left": \#(left), "top": \#(top), "right": \#(right), "bottom": \#(bottom)}"#
    }

    /// `text` as a JSON string the way Python's `json.dumps` writes it: `"` and `\` escaped,
    /// control and non-ASCII characters as `\uXXXX` (UTF-16 units).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(unit)!)
            default: out += "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
            }
        }
        return out + "\""
    }
}
