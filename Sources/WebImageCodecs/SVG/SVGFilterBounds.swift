import WebImage

/// Bounds on the filter primitives whose cost or safety their attributes decide, checked on
/// every written element before librsvg reads the document: a convolution kernel of more
/// than ``maxKernelValues`` values (librsvg 2.54 aborts the process on one over 400, while
/// loading), and turbulence of more than ``maxOctaves`` octaves (each octave is another pass
/// of noise over every pixel; a 200-byte document of 100,000 octaves draws for minutes).
enum SVGFilterBounds {
    /// The most values an `feConvolveMatrix` kernel may have: `order` 20 × 20.
    static let maxKernelValues = 400
    /// The most octaves an `feTurbulence` may ask for.
    static let maxOctaves = 16

    /// Throws ``ImageCodingError/unsupportedFeature(_:_:)`` when the element `local` with
    /// `attributes` is a primitive over its bound.
    static func check(_ local: [UInt8], attributes: [(name: ArraySlice<UInt8>, value: [UInt8])]) throws(ImageCodingError) {
        func value(_ name: String) -> [UInt8]? { attributes.last { $0.name.elementsEqual(name.utf8) }?.value }
        switch local {
        case Array("feConvolveMatrix".utf8):
            let order = numbers(in: value("order") ?? [])
            let sides = order.prefix(2).map { Double($0) ?? .infinity }
            let area = (sides.first ?? 3) * (sides.count > 1 ? sides[1] : sides.first ?? 3)
            let values = numbers(in: value("kernelMatrix") ?? []).count
            guard area <= Double(maxKernelValues), values <= maxKernelValues else {
                throw .unsupportedFeature(.svg, "a convolution kernel over \(maxKernelValues) values")
            }
        case Array("feTurbulence".utf8):
            let octaves = numbers(in: value("numOctaves") ?? []).first.flatMap { Double($0) } ?? 1
            guard octaves <= Double(maxOctaves) else {
                throw .unsupportedFeature(.svg, "turbulence of more than \(maxOctaves) octaves")
            }
        default:
            break
        }
    }

    /// The numbers of a list separated by white space or commas, as text.
    private static func numbers(in list: [UInt8]) -> [String] {
        list.split { SVGByteScanner.isWhitespace($0) || $0 == UInt8(ascii: ",") }.map { String(decoding: $0, as: UTF8.self) }
    }
}
