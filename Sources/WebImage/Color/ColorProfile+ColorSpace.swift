extension ColorProfile {
    /// The colour space of the pixels a profile describes: how many channels they have and
    /// what the channels are.
    public enum ColorSpace: Sendable, Hashable, CustomStringConvertible {
        /// Red, green and blue.
        case rgb
        /// One grey channel.
        case gray
        /// Cyan, magenta, yellow and black: print profiles, as in CMYK JPEGs.
        case cmyk
        /// Another ICC colour space (Lab, XYZ, YCbCr, multi-channel...), by its four-letter
        /// signature; WebImage does not convert pixels from these.
        case other(String)

        /// The colour space named by an ICC header's four-byte signature.
        init(signature: UInt32) {
            switch signature {
            case 0x5247_4220: self = .rgb  // 'RGB '
            case 0x4752_4159: self = .gray  // 'GRAY'
            case 0x434D_594B: self = .cmyk  // 'CMYK'
            default: self = .other(ICCProfileContents.text(signature: signature))
            }
        }

        /// `RGB`, `grey`, `CMYK`, or the signature of another space.
        public var description: String {
            switch self {
            case .rgb: "RGB"
            case .gray: "grey"
            case .cmyk: "CMYK"
            case .other(let signature): signature
            }
        }
    }
}
