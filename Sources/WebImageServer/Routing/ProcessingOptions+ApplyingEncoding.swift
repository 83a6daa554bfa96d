import Foundation
import WebImage

extension ProcessingOptions {
    /// Applies one of imgproxy Pro's encoder options (`jpeg_options`, `png_options`,
    /// `webp_options`, `avif_options`, `dpi`); every argument may be empty, keeping its value.
    mutating func applyEncoding(_ name: ProcessingOptionName, _ arguments: OptionArguments) throws(ProcessingURLError) {
        switch name {
        case .jpegOptions:
            // progressive:no_subsample:trellis_quant:overshoot_deringing:optimize_scans:quant_table
            try arguments.expectCount(1, 6)
            if arguments.has(0) { progressiveJPEG = try arguments.boolean(0) }
            if arguments.has(1) { encoding.jpegNoSubsample = try arguments.boolean(1) }
            for index in [2, 3, 4] where arguments.has(index) {
                guard try !arguments.boolean(index) else {
                    throw arguments.fail("trellis quantisation, overshoot deringing and optimized scans need mozjpeg, which this server's libjpeg-turbo is not")
                }
            }
            if arguments.has(5), try arguments.integer(5, in: 0...8) != 0 {
                throw arguments.fail("quantization tables other than Annex K's (0) need mozjpeg, which this server's libjpeg-turbo is not")
            }
        case .pngOptions:
            // interlaced:quantize:quantization_colors
            try arguments.expectCount(1, 3)
            if arguments.has(0) { interlacedPNG = try arguments.boolean(0) }
            if arguments.has(2) { pngQuantizationColors = try arguments.integer(2, in: 2...256) }
            let quantizes = arguments.has(1) ? try arguments.boolean(1) : pngPaletteColors != nil
            pngPaletteColors = quantizes ? pngQuantizationColors : nil
        case .webpOptions:
            // compression:smart_subsample:preset
            try arguments.expectCount(1, 3)
            if arguments.has(0) { encoding.webpCompression = try arguments.choice(0, "the compression is lossy, near_lossless or lossless") }
            if arguments.has(1) { encoding.webpSmartSubsample = try arguments.boolean(1) }
            if arguments.has(2) {
                // imgproxy's names: libwebp's, `default` for the general-purpose one.
                let preset = arguments.values[2]
                guard let kind = preset == "default" ? .general : preset == "general" ? nil : ImageContentKind(rawValue: String(preset)) else {
                    throw arguments.fail("the preset is default, photo, picture, drawing, icon or text")
                }
                encoding.webpPreset = kind
            }
        case .avifOptions:
            try arguments.expectCount(1, 1)
            encoding.avifSubsample = try arguments.choice(0, "the subsample is auto, on or off")
        case .autoquality:
            // method:target:min_quality:max_quality:allowed_error; a URL's bounds replace the per-format ones.
            try arguments.expectCount(1, 5)
            if arguments.has(0) { autoquality.method = try arguments.choice(0, "the method is none, size, dssim or ml") }
            if arguments.has(1) { autoquality.target = try arguments.decimal(1, in: 0...Double(Int32.max)) }
            if arguments.has(2) {
                autoquality.minQuality = try arguments.integer(2, in: 1...100)
                autoquality.formatMin = [:]
            }
            if arguments.has(3) {
                autoquality.maxQuality = try arguments.integer(3, in: 1...100)
                autoquality.formatMax = [:]
            }
            if arguments.has(4) { autoquality.allowedError = try arguments.decimal(4, in: 0...1) }
        case .colorProfile:
            try arguments.expectCount(1, 1)
            let name = try arguments.text(0, maxLength: 100)
            guard name != "cmyk" else { throw arguments.fail("CMYK results are not written here: pixels are RGB") }
            // A file name in the profiles folder, never a path out of it.
            guard name.isEmpty || (!name.hasPrefix(".") && name.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._- ".unicodeScalars.contains($0))
            })) else { throw arguments.fail("a profile is srgb or a file name of letters, digits, ., _, - and spaces") }
            colorProfile = name.isEmpty ? nil : name
        case .dpi:
            try arguments.expectCount(1, 1)
            encoding.dpi = try arguments.integer(0, in: 0...65535)
        default:
            throw arguments.fail("not an encoder option")
        }
    }
}
