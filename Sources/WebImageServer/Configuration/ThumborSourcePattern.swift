import Foundation

/// One entry of thumbor's `ALLOWED_SOURCES`, matched as thumbor's HTTP loader matches it
/// (`thumbor.loaders.http_loader.validate`): a plain host is the whole host; a string holding
/// a regular expression's characters (`\ ^ $ * + ? { } [ ] ( ) |`) is a pattern written between
/// `^` and `$` and matched from the host's start; a compiled pattern (`re.compile('…')` in thumbor.conf, `~PATTERN` in the setting's
/// text) is matched from the start of the source URL.
public struct ThumborSourcePattern: Sendable, Equatable {
    /// The entry as the setting's text gives it.
    public let text: String
    /// What the entry is matched against, and how.
    private let form: Form

    private enum Form: Sendable {
        case host(String)
        case hostPattern(NSRegularExpression)
        case urlPattern(NSRegularExpression)
    }

    /// The characters that make thumbor read a string as a host pattern.
    private static let patternCharacters = Set("\\^$*+?{}[]()|")

    /// The entry `text` describes; throws the reason when its pattern is not a regular expression.
    init(setting text: String) throws(SettingValueError) {
        self.text = text
        func compiled(_ pattern: some StringProtocol) throws(SettingValueError) -> NSRegularExpression {
            do {
                return try NSRegularExpression(pattern: String(pattern))
            } catch {
                throw SettingValueError(reason: "has \"\(text.hasPrefix("~") ? String(text.dropFirst()) : text)\", which is no regular expression")
            }
        }
        if text.hasPrefix("~") {
            form = .urlPattern(try compiled(text.dropFirst()))
        } else if text.contains(where: Self.patternCharacters.contains) {
            // As thumbor writes it: the pattern between ^ and $, matched from the host's start.
            form = .hostPattern(try compiled("^" + text + "$"))
        } else {
            form = .host(text.lowercased())
        }
    }

    /// Whether the source `url` is allowed by this entry.
    func matches(_ url: URL) -> Bool {
        let host = url.host?.lowercased() ?? ""
        switch form {
        case .host(let allowed):
            return host == allowed
        case .hostPattern(let pattern):
            return pattern.firstMatch(in: host, options: .anchored, range: NSRange(host.startIndex..., in: host)) != nil
        case .urlPattern(let pattern):
            let text = url.absoluteString
            return pattern.firstMatch(in: text, options: .anchored, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    public static func == (a: ThumborSourcePattern, b: ThumborSourcePattern) -> Bool { a.text == b.text }
}
