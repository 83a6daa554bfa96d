/// The processing options this server understands, by imgproxy's long name; ``init(spelling:)``
/// also takes the short forms.
enum ProcessingOptionName: String, CaseIterable {
    case resize, size, resizingType = "resizing_type", width, height, dpr, enlarge, gravity, quality, format
    case blur, rotate, background, crop, autoRotate = "auto_rotate", stripMetadata = "strip_metadata"
    case cacheBuster = "cachebuster", expires, filename, returnAttachment = "return_attachment", preset

    /// The option called `spelling`, long or short (`rs`, `s`, `rt`, `w`, `h`, `el`, `g`, `q`,
    /// `f` and `ext`, `bl`, `rot`, `bg`, `c`, `ar`, `sm`, `cb`, `exp`, `fn`, `att`, `pr`); nil for any other.
    init?(spelling: Substring) {
        if let long = ProcessingOptionName(rawValue: String(spelling)) {
            self = long
            return
        }
        switch spelling {
        case "rs": self = .resize
        case "s": self = .size
        case "rt": self = .resizingType
        case "w": self = .width
        case "h": self = .height
        case "el": self = .enlarge
        case "g": self = .gravity
        case "q": self = .quality
        case "f", "ext": self = .format
        case "bl": self = .blur
        case "rot": self = .rotate
        case "bg": self = .background
        case "c": self = .crop
        case "ar": self = .autoRotate
        case "sm": self = .stripMetadata
        case "cb": self = .cacheBuster
        case "exp": self = .expires
        case "fn": self = .filename
        case "att": self = .returnAttachment
        case "pr": self = .preset
        default: return nil
        }
    }
}
