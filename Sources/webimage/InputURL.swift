import ArgumentParser
import Foundation
import WebImage

/// A command-line argument as the URL to load: a URL as written when it has a scheme
/// (`https:`, `file:`, `data:`), otherwise a file path, made absolute as a `file:` URL.
enum InputURL {
    /// The URL `argument` names, or a ``ValidationError`` (exit status 64) when it has a scheme
    /// but is no URL `loaders` can load: unparsable, without a host, or of a scheme none takes.
    static func url(for argument: String, loaders: ImageLoaders) throws(ValidationError) -> URL {
        guard hasScheme(argument) else { return URL(fileURLWithPath: argument) }
        guard let url = URL(string: argument) else { throw ValidationError("\(argument) is not a valid URL") }
        if let why = loaders.whyUnhandled(url) { throw ValidationError("\(argument) is not a valid URL: \(why)") }
        return url
    }

    /// Whether `argument` starts with a URL scheme of two characters or more (`http:`), so that
    /// a path such as `photo.jpg` or `./a:b.png` stays a path.
    private static func hasScheme(_ argument: String) -> Bool {
        guard let colon = argument.firstIndex(of: ":") else { return false }
        let scheme = argument[..<colon]
        return scheme.count > 1 && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
