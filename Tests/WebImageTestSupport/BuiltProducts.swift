import Foundation

/// The executables SwiftPM built with the tests (`cache-writer`, `webimage`), which it puts in
/// the same folder as the test runner.
public enum BuiltProducts {
    /// The build products folder: the folder of the running test executable on Linux
    /// (`/proc/self/exe`), the folder of the `.xctest` bundle elsewhere.
    public static let folder: URL = {
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: executable).deletingLastPathComponent()
        }
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main
        return bundle.bundleURL.deletingLastPathComponent()
    }()

    /// The built executable `name`.
    public static func executable(_ name: String) -> URL {
        folder.appendingPathComponent(name, isDirectory: false)
    }
}
