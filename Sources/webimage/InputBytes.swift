import Foundation

/// Reads the bytes a command was pointed at: a path or a `file://` URL.
enum InputBytes {
    /// The contents of `argument`, or a ``CommandFailure`` that says why they could not be read.
    static func read(_ argument: String) throws(CommandFailure) -> Data {
        let path: String
        if let url = URL(string: argument), let scheme = url.scheme, scheme.count > 1 {
            guard url.isFileURL else {
                throw CommandFailure("cannot read \(argument): only files and file:// URLs are supported by this command for now")
            }
            path = url.path
        } else {
            path = argument
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(path): no such file or not readable")
        }
        return data
    }
}
