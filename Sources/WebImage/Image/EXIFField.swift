/// One field of an image's EXIF block, as an image description reports it: its tag's name in
/// the EXIF specification (`DateTimeOriginal`), a title for people (`Date and Time (Original)`)
/// and its value as text.
public struct EXIFField: Sendable, Hashable {
    /// The tag number.
    public let tag: Int
    /// The tag's name in the EXIF 2.32 and TIFF 6 specifications; `Tag0x…` for a tag not listed.
    public let name: String
    /// The tag's title, words a person reads; the name for a tag not listed.
    public let title: String
    /// The value: text as written, numbers separated by `, `, rationals as `n/d`.
    public let value: String

    /// The fields of a TIFF-structured EXIF block (`II*\0…`, `MM\0*…`, or with JPEG's
    /// `Exif\0\0` before it): IFD0's, then the EXIF directory's and the GPS directory's
    /// (GPS tags named `GPS…`), without the pointers between them and without MakerNote; empty
    /// when the block is no TIFF structure. Offsets are checked against the block, which is
    /// hostile input.
    public static func fields(fromTIFF bytes: some Collection<UInt8>) -> [EXIFField] {
        guard let root = TIFFDirectory(bytes) else { return [] }
        var fields: [EXIFField] = []
        func collect(_ directory: TIFFDirectory, names: [Int: (String, String)], prefix: String) {
            for entry in directory.entries where !pointerTags.contains(entry.tag) && entry.tag != 0x927C {
                guard let value = directory.text(entry) else { continue }
                let known = names[entry.tag]
                let name = known?.0 ?? prefix + "Tag0x" + String(entry.tag, radix: 16, uppercase: true)
                fields.append(EXIFField(tag: entry.tag, name: name, title: known?.1 ?? name, value: value))
            }
        }
        collect(root, names: tiffNames, prefix: "")
        for (pointer, names, prefix) in [(0x8769, tiffNames, ""), (0x8825, gpsNames, "GPS")] {
            guard let entry = root.entries.first(where: { $0.tag == pointer }), let offset = root.u32(entry.valueOffset),
                  let directory = root.directory(at: offset) else { continue }
            collect(directory, names: names, prefix: prefix)
        }
        return fields
    }

    /// The tags that point to other directories: EXIF, GPS, interoperability.
    private static let pointerTags: Set<Int> = [0x8769, 0x8825, 0xA005]

    /// Names and titles of the IFD0 and EXIF directory tags reported by name.
    private static let tiffNames: [Int: (String, String)] = [
        0x010E: ("ImageDescription", "Image Description"), 0x010F: ("Make", "Manufacturer"), 0x0110: ("Model", "Model"),
        0x0112: ("Orientation", "Orientation"), 0x011A: ("XResolution", "X-Resolution"), 0x011B: ("YResolution", "Y-Resolution"),
        0x0128: ("ResolutionUnit", "Resolution Unit"), 0x0131: ("Software", "Software"), 0x0132: ("DateTime", "Date and Time"),
        0x013B: ("Artist", "Artist"), 0x0213: ("YCbCrPositioning", "YCbCr Positioning"), 0x8298: ("Copyright", "Copyright"),
        0x829A: ("ExposureTime", "Exposure Time"), 0x829D: ("FNumber", "F-Number"), 0x8822: ("ExposureProgram", "Exposure Program"),
        0x8827: ("ISOSpeedRatings", "ISO Speed Ratings"), 0x8830: ("SensitivityType", "Sensitivity Type"),
        0x9000: ("ExifVersion", "Exif Version"), 0x9003: ("DateTimeOriginal", "Date and Time (Original)"),
        0x9004: ("DateTimeDigitized", "Date and Time (Digitized)"), 0x9010: ("OffsetTime", "Offset Time"),
        0x9011: ("OffsetTimeOriginal", "Offset Time (Original)"), 0x9012: ("OffsetTimeDigitized", "Offset Time (Digitized)"),
        0x9101: ("ComponentsConfiguration", "Components configuration"), 0x9102: ("CompressedBitsPerPixel", "Compressed Bits per Pixel"),
        0x9201: ("ShutterSpeedValue", "Shutter Speed"), 0x9202: ("ApertureValue", "Aperture"), 0x9203: ("BrightnessValue", "Brightness"),
        0x9204: ("ExposureBiasValue", "Exposure Bias"), 0x9205: ("MaxApertureValue", "Maximum Aperture Value"),
        0x9206: ("SubjectDistance", "Subject Distance"), 0x9207: ("MeteringMode", "Metering Mode"), 0x9208: ("LightSource", "Light Source"),
        0x9209: ("Flash", "Flash"), 0x920A: ("FocalLength", "Focal Length"), 0x9214: ("SubjectArea", "Subject Area"),
        0x9286: ("UserComment", "User Comment"), 0x9290: ("SubSecTime", "Sub-second Time"),
        0x9291: ("SubSecTimeOriginal", "Sub-second Time (Original)"), 0x9292: ("SubSecTimeDigitized", "Sub-second Time (Digitized)"),
        0xA000: ("FlashpixVersion", "FlashPixVersion"), 0xA001: ("ColorSpace", "Color Space"),
        0xA002: ("PixelXDimension", "Pixel X Dimension"), 0xA003: ("PixelYDimension", "Pixel Y Dimension"),
        0xA20E: ("FocalPlaneXResolution", "Focal Plane X-Resolution"), 0xA20F: ("FocalPlaneYResolution", "Focal Plane Y-Resolution"),
        0xA210: ("FocalPlaneResolutionUnit", "Focal Plane Resolution Unit"), 0xA217: ("SensingMethod", "Sensing Method"),
        0xA300: ("FileSource", "File Source"), 0xA301: ("SceneType", "Scene Type"), 0xA401: ("CustomRendered", "Custom Rendered"),
        0xA402: ("ExposureMode", "Exposure Mode"), 0xA403: ("WhiteBalance", "White Balance"),
        0xA404: ("DigitalZoomRatio", "Digital Zoom Ratio"), 0xA405: ("FocalLengthIn35mmFilm", "Focal Length in 35mm Film"),
        0xA406: ("SceneCaptureType", "Scene Capture Type"), 0xA407: ("GainControl", "Gain Control"), 0xA408: ("Contrast", "Contrast"),
        0xA409: ("Saturation", "Saturation"), 0xA40A: ("Sharpness", "Sharpness"),
        0xA40C: ("SubjectDistanceRange", "Subject Distance Range"), 0xA420: ("ImageUniqueID", "Image Unique ID"),
        0xA430: ("CameraOwnerName", "Camera Owner Name"), 0xA431: ("BodySerialNumber", "Body Serial Number"),
        0xA432: ("LensSpecification", "Lens Specification"), 0xA433: ("LensMake", "Lens Make"), 0xA434: ("LensModel", "Lens Model"),
        0xA435: ("LensSerialNumber", "Lens Serial Number"),
    ]

    /// Names and titles of the GPS directory's tags.
    private static let gpsNames: [Int: (String, String)] = [
        0x0000: ("GPSVersionID", "GPS Tag Version"), 0x0001: ("GPSLatitudeRef", "North or South Latitude"),
        0x0002: ("GPSLatitude", "Latitude"), 0x0003: ("GPSLongitudeRef", "East or West Longitude"), 0x0004: ("GPSLongitude", "Longitude"),
        0x0005: ("GPSAltitudeRef", "Altitude Reference"), 0x0006: ("GPSAltitude", "Altitude"), 0x0007: ("GPSTimeStamp", "GPS Time (Atomic Clock)"),
        0x000C: ("GPSSpeedRef", "Speed Unit"), 0x000D: ("GPSSpeed", "Speed of GPS Receiver"), 0x0010: ("GPSImgDirectionRef", "Reference for Direction of Image"),
        0x0011: ("GPSImgDirection", "Direction of Image"), 0x0012: ("GPSMapDatum", "Geodetic Survey Data Used"), 0x001D: ("GPSDateStamp", "GPS Date"),
    ]
}
