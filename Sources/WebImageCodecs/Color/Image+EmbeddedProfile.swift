import WebImage

extension Image {
    /// The image as an RGB encoder (JPEG, PNG, WebP) writes it, with the profile to embed:
    /// ``colorProfile`` when it is an RGB profile; none for sRGB pixels (nil), which every
    /// viewer assumes anyway. Pixels in a grey profile's space (a greyscale JPEG decoded with
    /// ``ColorManagement/preserve``), which an RGB file cannot declare, are converted to sRGB
    /// first; a profile of another space, or one lcms2 refuses, is left out.
    func withEmbeddableProfile() -> (image: Image, profile: ColorProfile?) {
        guard let profile = colorProfile else { return (self, nil) }
        switch profile.colorSpace {
        case .rgb:
            return (self, profile)
        case .gray:
            return (inSRGB(), nil)
        case .cmyk, .other:
            var plain = self
            plain.colorProfile = nil
            return (plain, nil)
        }
    }

    /// The image as an encoder that writes no profile needs it: converted to sRGB through
    /// ``colorProfile`` (the pixels as they are when there is none or lcms2 refuses it), and
    /// without a profile.
    func inSRGB() -> Image {
        var plain = self
        plain.colorProfile = nil
        return (try? ColorConversion.toSRGB(self)) ?? plain
    }
}
