import WebImage

extension ProcessingOptions {
    /// Applies one of imgproxy Pro's colour options (`background_alpha`, `adjust`, `brightness`,
    /// `contrast`, `saturation`, `monochrome`, `duotone`, `colorize`, `gradient`) as imgproxy's
    /// `processing.mdx` spells their arguments; the numbers it leaves open are the transformers'
    /// (``ColorAdjustment``, ``DuotoneTransformer``, ``ColorOverlayTransformer``).
    mutating func applyColour(_ name: ProcessingOptionName, _ arguments: OptionArguments) throws(ProcessingURLError) {
        switch name {
        case .backgroundAlpha:
            try arguments.expectCount(1, 1)
            backgroundAlpha = try arguments.decimal(0, in: 0...1)
        case .adjust:
            try arguments.expectCount(1, 3)
            if arguments.has(0) { brightness = try arguments.integer(0, in: -255...255) }
            if arguments.has(1) { contrast = try Self.factor(arguments, 1) }
            if arguments.has(2) { saturation = try Self.factor(arguments, 2) }
        case .brightness:
            try arguments.expectCount(1, 1)
            brightness = try arguments.integer(0, in: -255...255)
        case .contrast:
            try arguments.expectCount(1, 1)
            contrast = try Self.factor(arguments, 0)
        case .saturation:
            try arguments.expectCount(1, 1)
            saturation = try Self.factor(arguments, 0)
        case .monochrome:
            try arguments.expectCount(1, 2)
            let intensity = try arguments.decimal(0, in: 0...1)
            let colour = arguments.has(1) ? try Self.hexColour(arguments, 1) : RGBA(r: 0xB3, g: 0xB3, b: 0xB3)
            monochrome = intensity > 0 ? .monochrome(colour, intensity: intensity) : nil
        case .duotone:
            try arguments.expectCount(1, 3)
            let intensity = try arguments.decimal(0, in: 0...1)
            let dark = arguments.has(1) ? try Self.hexColour(arguments, 1) : RGBA(r: 0, g: 0, b: 0)
            let light = arguments.has(2) ? try Self.hexColour(arguments, 2) : RGBA(r: 255, g: 255, b: 255)
            duotone = intensity > 0 ? .duotone(dark: dark, light: light, intensity: intensity) : nil
        case .colorize:
            try arguments.expectCount(1, 3)
            let opacity = try arguments.decimal(0, in: 0...1)
            let colour = arguments.has(1) ? try Self.hexColour(arguments, 1) : RGBA(r: 0, g: 0, b: 0)
            let keepsAlpha = arguments.has(2) ? try arguments.boolean(2) : false
            colorize = opacity > 0 ? .colorize(colour, opacity: opacity, keepsAlpha: keepsAlpha) : nil
        case .gradient:
            try arguments.expectCount(1, 5)
            let opacity = try arguments.decimal(0, in: 0...1)
            let colour = arguments.has(1) ? try Self.hexColour(arguments, 1) : RGBA(r: 0, g: 0, b: 0)
            gradient = opacity > 0 ? .gradient(colour, opacity: opacity, try Self.ramp(arguments, from: 2)) : nil
        default:
            throw arguments.fail("not a colour option")
        }
    }

    /// Argument `index` as a contrast or saturation factor: positive, 1 unchanged.
    private static func factor(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> Double {
        try arguments.decimal(index, in: 0...100)
    }

    /// `direction:start:stop` from argument `index` on, as a ramp (`gradient`, `progressive_blur`):
    /// the direction `down` (0°, the default), `left` (90°), `up` (180°), `right` (270°) or an
    /// angle in degrees clockwise from down; start and stop 0…1, 0 and 1 by default.
    static func ramp(_ arguments: OptionArguments, from index: Int) throws(ProcessingURLError) -> LinearRamp {
        var angle = 0.0
        if arguments.has(index) {
            switch arguments.values[index] {
            case "down": angle = 0
            case "left": angle = 90
            case "up": angle = 180
            case "right": angle = 270
            default: angle = try arguments.decimal(index, in: -360...360)
            }
        }
        let start = arguments.has(index + 1) ? try arguments.decimal(index + 1, in: 0...1) : 0
        let stop = arguments.has(index + 2) ? try arguments.decimal(index + 2, in: 0...1) : 1
        return LinearRamp(angle: angle, start: start, stop: stop)
    }
}
