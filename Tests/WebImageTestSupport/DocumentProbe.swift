import Foundation

extension HeadlessChromium {
    /// Opens each of `documents` as the top-level document, then `page` (which embeds them),
    /// pointing at and clicking each as a victim would (`probe_documents.py`, beside this
    /// file); returns what ran in the browser. Throws ``HeadlessChromiumError`` with the
    /// script's error output when it fails.
    public func probe(documents: [URL], embeddedIn page: URL) throws -> DocumentProbe {
        let script = Self.scripts.appendingPathComponent("probe_documents.py")
        let arguments = [script.path, Self.browser.path, Self.driver.path, page.absoluteString] + documents.map(\.absoluteString)
        let result = try ChildProcess.run(python, arguments, environment: ["SE_OFFLINE": "true"], timeout: 120)
        guard result.status == 0 else {
            throw HeadlessChromiumError(message: "probe_documents.py exited with \(result.status.map(String.init) ?? "a signal"): \(result.error)")
        }
        return try JSONDecoder().decode(DocumentProbe.self, from: Data(result.output.utf8))
    }
}

/// What ran in the browser while ``HeadlessChromium/probe(documents:embeddedIn:)`` opened
/// documents: one report per document opened alone, and one for the page embedding them.
public struct DocumentProbe: Decodable, Sendable {
    /// The documents opened as top-level documents, in order.
    public let documents: [ProbedDocument]
    /// The page that embeds them.
    public let page: ProbedDocument
}

/// What the browser saw of one document once it had been pointed at, clicked and had settled.
public struct ProbedDocument: Decodable, Sendable {
    /// The URL opened.
    public let url: String
    /// The text of every alert, confirm or prompt it opened.
    public let alerts: [String]
    /// `window.name` of the top-level window afterwards; nil when it could not be read.
    public let name: String?
    /// What the driver could not do (an element out of reach, a script refused), for messages.
    public let errors: [String]
    /// Every console message of the top-level window and its frames.
    public let console: [ConsoleMessage]
}

/// A message of the browser's console.
public struct ConsoleMessage: Decodable, Sendable, CustomStringConvertible {
    /// `SEVERE` for errors, `WARNING`, `INFO`.
    public let level: String
    /// Where it comes from, then its text.
    public let message: String

    public var description: String { "\(level): \(message)" }
}
