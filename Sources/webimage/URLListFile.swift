import ArgumentParser
import Foundation
import WebImage

/// The URLs of a `-i FILE` list (`-` reads standard input): one a line, surrounding blanks
/// trimmed, empty lines and lines starting with `#` skipped.
enum URLListFile {
    /// The entries of the list at `path`, or a ``ValidationError`` (exit status 64) saying why
    /// it cannot be read.
    static func read(_ path: String) throws(ValidationError) -> [String] {
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read the URL list \(path): \(SystemErrorText.describe(error))")
        }
        return entries(in: String(decoding: data, as: UTF8.self))
    }

    /// The entries of a list's text.
    static func entries(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
