import Foundation

/// A variable imgproxy reads that `webimage serve` has no setting for, and what is done when an
/// operator's environment sets it: nothing is dropped without a word.
public struct ForeignVariable: Sendable, Equatable {
    /// What setting the variable leads to.
    public enum Handling: Sendable, Equatable {
        /// A start-up warning: the variable changes nothing an answer or its safety depends
        /// on here (libvips internals, the Go runtime, a vendor's agent this server has none of).
        case ignored
        /// A start-up error unless the value is imgproxy's default, `default` as an operator
        /// writes it: ignoring another value would change answers or what is allowed.
        case refused(default: String)
    }

    /// The variable's name (`IMGPROXY_JPEG_PROGRESSIVE`).
    public let name: String
    /// What setting it leads to.
    public let handling: Handling
    /// Why, in a few words after the name ("progressive JPEG is not written here").
    public let reason: String

    /// Whether `text`, the variable's value, is imgproxy's default as imgproxy reads it: the same
    /// truth value, the same number, or the same words whatever their case and the spaces
    /// around commas (imgproxy lowercases its choices and trims list items).
    func isDefault(_ text: String) -> Bool {
        guard case .refused(let defaultText) = handling else { return true }
        let given = text.trimmingCharacters(in: .whitespaces)
        if let expected = try? SettingText.boolean(defaultText) { return (try? SettingText.boolean(given)) == expected }
        if let expected = Double(defaultText) { return Double(given) == expected }
        func words(_ text: String) -> [String] {
            text.lowercased().split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return words(given) == words(defaultText)
    }

    /// The variable's row in the table of imgproxy's variables in WebImageServer.docc/Configuration.md:
    /// name, what is done, why.
    public var markdownRow: String {
        let handled = switch handling {
        case .ignored: "ignored, with a warning"
        case .refused(let defaultText): defaultText.isEmpty ? "refused unless unset" : "refused unless `\(defaultText)`"
        }
        return "| `\(name)` | \(handled) | \(reason.replacingOccurrences(of: "|", with: "\\|")) |"
    }
}
