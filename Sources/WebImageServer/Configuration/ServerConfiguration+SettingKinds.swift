import Foundation
import WebImage

/// The kinds of setting the table is written in: each reads its text the same way from a
/// variable and a flag, and shows its default as the configuration's own.
extension ServerConfiguration {
    /// The defaults the table shows.
    static let defaults = ServerConfiguration()

    static func setting(_ flag: String, _ variable: String?, _ valueName: String?, _ summary: String, default defaultText: String,
                        repeated separator: String? = nil, shown: SettingVisibility = .whole, emptyIsAValue: Bool = false,
                        read: @escaping @Sendable (String, inout ServerConfiguration) throws(SettingValueError) -> Void)
        -> ServerSetting {
        var setting = ServerSetting(flag: flag, variable: variable, valueName: valueName, summary: summary, defaultText: defaultText,
                                    separator: separator, shown: shown, read: read)
        setting.emptyIsAValue = emptyIsAValue
        return setting
    }

    static func integer(_ flag: String, _ variable: String, _ valueName: String, _ summary: String,
                        _ range: ClosedRange<Int>, _ keyPath: WritableKeyPath<ServerConfiguration, Int> & Sendable,
                        default defaultText: String? = nil, rangeText: String? = nil) -> ServerSetting {
        setting(flag, variable, valueName, "\(summary), \(rangeText ?? "\(range.lowerBound)…\(range.upperBound)")",
                default: defaultText ?? String(defaults[keyPath: keyPath])) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.integer(text, in: range)
        }
    }

    /// Where an image the server itself needs comes from, as imgproxy names the setting
    /// (`IMGPROXY_` and the flag in capitals): a file for a flag ending in `-path`, a URL for
    /// `-url`, else the base64-encoded bytes.
    static func imageSource(_ flag: String, _ summary: String,
                            _ keyPath: WritableKeyPath<ServerConfiguration, AuxiliaryImageSource?> & Sendable,
                            default defaultText: String = "none") -> ServerSetting {
        let variable = "IMGPROXY_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
        let form = flag.split(separator: "-").last ?? ""
        let valueName = form == "path" ? "FILE" : form == "url" ? "URL" : "BASE64"
        return setting(flag, variable, valueName, summary, default: defaultText,
                       shown: form == "url" ? .withoutURLCredentials : .whole) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = switch form {
            case "path": .path(text)
            case "url": .url(text)
            default: try AuxiliaryImageSource.decodingBase64(text)
            }
        }
    }

    static func decimal(_ flag: String, _ variable: String, _ valueName: String, _ summary: String,
                        _ range: ClosedRange<Double>, _ keyPath: WritableKeyPath<ServerConfiguration, Double> & Sendable)
        -> ServerSetting {
        setting(flag, variable, valueName, summary,
                default: defaults[keyPath: keyPath].plainText) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.decimal(text, in: range)
        }
    }

    static func boolean(_ flag: String, _ variable: String, _ summary: String,
                        _ keyPath: WritableKeyPath<ServerConfiguration, Bool> & Sendable) -> ServerSetting {
        setting(flag, variable, nil, summary, default: String(defaults[keyPath: keyPath])) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.boolean(text)
        }
    }

    /// One of `Choice`'s cases, by its raw value in any case; the summary lists them.
    static func choice<Choice: RawRepresentable<String> & CaseIterable & Sendable>(
        _ flag: String, _ variable: String, _ valueName: String, _ summary: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, Choice> & Sendable) -> ServerSetting {
        let names = Choice.allCases.map(\.rawValue)
        return setting(flag, variable, valueName, "\(summary): \(names.joined(separator: ", "))",
                       default: defaults[keyPath: keyPath].rawValue) { text, configuration throws(SettingValueError) in
            guard let value = Choice(rawValue: text.lowercased()) else {
                throw SettingValueError(reason: "is \"\(text)\", which is none of \(names.joined(separator: ", "))")
            }
            configuration[keyPath: keyPath] = value
        }
    }

    /// Qualities by format, `FORMAT=Q` pairs (each quality 1…100): comma-separated in the
    /// variable, the flag repeated on the command line.
    static func formatQualities(_ flag: String, _ variable: String, _ summary: String, default defaultText: String,
                                _ keyPath: WritableKeyPath<ServerConfiguration, [ImageFormat: Int]> & Sendable) -> ServerSetting {
        setting(flag, variable, "FORMAT=Q,…", "\(summary); repeat for more", default: defaultText,
                repeated: ",") { text, configuration throws(SettingValueError) in
            var qualities: [ImageFormat: Int] = [:]
            for pair in SettingText.list(text) {
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2, let format = try? ProcessingOptions.anyFormat(named: parts[0]),
                      let quality = Int(parts[1]), (1...100).contains(quality) else {
                    throw SettingValueError(reason: "has \"\(pair)\", which is no FORMAT=QUALITY with a quality of 1…100")
                }
                qualities[format] = quality
            }
            configuration[keyPath: keyPath] = qualities
        }
    }

    /// A setting on by default: `true` or `false` on the command line too.
    static func switchable(_ flag: String, _ variable: String, _ summary: String,
                           _ keyPath: WritableKeyPath<ServerConfiguration, Bool> & Sendable) -> ServerSetting {
        setting(flag, variable, "true|false", summary, default: String(defaults[keyPath: keyPath])) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.boolean(text)
        }
    }

    /// A credential: kept as a ``SecretSetting``, which never shows its text.
    static func secret(_ flag: String, _ variable: String, _ valueName: String, _ summary: String,
                       _ keyPath: WritableKeyPath<ServerConfiguration, SecretSetting?> & Sendable) -> ServerSetting {
        setting(flag, variable, valueName, summary, default: "none", shown: .masked) { text, configuration throws(SettingValueError) in
            // An empty one (--secret=) is none, as an empty variable is.
            configuration[keyPath: keyPath] = text.isEmpty ? nil : SecretSetting(text)
        }
    }

    /// A text kept as it is, nil unless given.
    static func text(_ flag: String, _ variable: String, _ valueName: String, _ summary: String, shown: SettingVisibility = .whole,
                     _ keyPath: WritableKeyPath<ServerConfiguration, String?> & Sendable) -> ServerSetting {
        setting(flag, variable, valueName, summary, default: "none", shown: shown) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = text
        }
    }

    /// A list: comma-separated in the variable, the flag repeated on the command line.
    static func list(_ flag: String, _ variable: String, _ valueName: String, _ summary: String, default defaultText: String,
                     shown: SettingVisibility = .whole,
                     _ keyPath: WritableKeyPath<ServerConfiguration, [String]> & Sendable) -> ServerSetting {
        setting(flag, variable, valueName, summary, default: defaultText, repeated: ",", shown: shown) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = SettingText.list(text)
        }
    }
}
