#if !WEBIMAGE_FUZZING
import Foundation

/// The normal build's `main`: replays files (a crash the fuzzer saved, or a corpus folder)
/// through one target and prints what each one decoded to.
///
///     webimage-fuzz jpeg .build-fuzz/artifacts/jpeg/crash-1234
///     webimage-fuzz png .build-fuzz/corpus/png
@main
enum FuzzReplay {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: webimage-fuzz \(names) FILE-OR-FOLDER...\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            for file in try files(at: path) {
                print("\(file): \(target.run(try Data(contentsOf: URL(fileURLWithPath: file))))")
            }
        }
    }

    /// `path` itself, or the files in it when it is a folder, sorted.
    private static func files(at path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" }
    }
}
#endif
