import Foundation

/// Errors from the operating system as a plain phrase ("permission denied"), for messages
/// people read: the `errno` text behind a Foundation file error rather than its wrapper.
public enum SystemErrorText {
    /// The `strerror` text of `code`, starting lowercase: "no such file or directory".
    public static func describe(errno code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The `errno` text behind `error` (a `POSIXError`, or a Foundation file error that wraps
    /// one), or its localized description when it has none.
    public static func describe(_ error: any Error) -> String {
        if let code = posixCode(of: error as NSError) { return describe(errno: code) }
        return error.localizedDescription
    }

    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        // Foundation on Linux keeps the underlying error as a Swift `Error`, not an `NSError`.
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
        return posixCode(of: underlying as NSError)
    }
}
