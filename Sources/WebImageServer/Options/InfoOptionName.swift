/// The options of imgproxy's `/info` URLs, by imgproxy's long name (its `getting_info.mdx`):
/// what the answer reports, and the options that bound or key the request as processing's do.
/// ``init(spelling:)`` reads it; the Info article's table is checked against ``documentation``.
enum InfoOptionName: String, CaseIterable {
    case size, format, dimensions, exif, iptc, xmp, videoMeta = "video_meta", detectObjects = "detect_objects", classify
    case colorspace, bands, sampleFormat = "sample_format", pagesNumber = "pages_number", alpha, crop
    case objectsPosition = "objects_position", palette, average, dominantColors = "dominant_colors", blurhash
    case thumbHash = "thumb_hash", perceptualHash = "perceptual_hash", calcHashsums = "calc_hashsums", page
    case videoThumbnailSecond = "video_thumbnail_second", videoThumbnailKeyframes = "video_thumbnail_keyframes"
    case cacheBuster = "cachebuster", expires, preset, hashsum, maxSrcResolution = "max_src_resolution"
    case maxSrcFileSize = "max_src_file_size"

    /// The other spellings imgproxy takes for the option.
    var shortNames: [String] {
        switch self {
        case .size: ["s"]
        case .format: ["f"]
        case .dimensions: ["d"]
        case .videoMeta: ["vm"]
        case .detectObjects: ["do"]
        case .classify: ["cl"]
        case .colorspace: ["cs"]
        case .bands: ["b"]
        case .sampleFormat: ["sf"]
        case .pagesNumber: ["pn"]
        case .alpha: ["a"]
        case .crop: ["c"]
        case .objectsPosition: ["obj_pos", "op"]
        case .palette: ["p"]
        case .average: ["avg"]
        case .dominantColors: ["dc"]
        case .blurhash: ["bh"]
        case .thumbHash: ["th"]
        case .perceptualHash: ["phash", "ph"]
        case .calcHashsums: ["chs"]
        case .page: ["pg"]
        case .videoThumbnailSecond: ["vts"]
        case .videoThumbnailKeyframes: ["vtk"]
        case .cacheBuster: ["cb"]
        case .expires: ["exp"]
        case .preset: ["pr"]
        case .hashsum: ["hs"]
        case .maxSrcResolution: ["msr"]
        case .maxSrcFileSize: ["msfs"]
        case .exif, .iptc, .xmp: []
        }
    }

    /// The option called `spelling`, long or short; nil for any other.
    init?(spelling: Substring) {
        if let long = InfoOptionName(rawValue: String(spelling)) {
            self = long
            return
        }
        guard let named = Self.allCases.first(where: { $0.shortNames.contains(String(spelling)) }) else { return nil }
        self = named
    }
}
