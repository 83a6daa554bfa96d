import Foundation
import WebImage
import WebImageCodecs

extension ImageProcessor {
    /// `image` converted to the profile `name` names and carrying it, so that its encoder embeds
    /// it (imgproxy Pro's `color_profile`): `srgb` (lcms2's compact sRGB, the pixels unchanged), or
    /// the RGB profile `name`, `name.icc` or `name.icm` in ``ServerConfiguration/OutputSettings/colorProfilesDir``.
    /// A profile that is not there, too large, or not RGB is a 422 that names no path.
    func withColorProfile(_ image: Image, named name: String) throws(ProcessingError) -> Image {
        do {
            if name == "srgb" {
                var stated = try ColorConversion.toSRGB(image)
                stated.colorProfile = try ColorConversion.sRGBProfile()
                return stated
            }
            let folder = URL(fileURLWithPath: output.colorProfilesDir, isDirectory: true)
            let file = [name, name + ".icc", name + ".icm"].map { folder.appendingPathComponent($0) }
                .first { FileManager.default.fileExists(atPath: $0.path) }
            guard let file, let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int,
                  size <= ColorProfile.maximumByteCount, let data = FileManager.default.contents(atPath: file.path) else {
                throw ProcessingError.unprocessable("no colour profile \"\(ProcessingURLError.quoting(name))\" in the profiles folder")
            }
            return try ColorConversion.fromSRGB(image, to: try ColorProfile(iccData: data))
        } catch let error as ProcessingError {
            throw error
        } catch {
            throw .unprocessable("the colour profile \"\(ProcessingURLError.quoting(name))\": \(error)")
        }
    }
}
