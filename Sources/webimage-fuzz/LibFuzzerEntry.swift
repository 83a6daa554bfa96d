#if WEBIMAGE_FUZZING
import Foundation

/// The target libFuzzer drives, named by `WEBIMAGE_FUZZ_TARGET` (libFuzzer owns the command
/// line and `main`). Read once, before the first input.
let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["WEBIMAGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("set WEBIMAGE_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: runs one input through ``fuzzTarget``. Built only with
/// `-DWEBIMAGE_FUZZING` and `-sanitize=fuzzer`, which links libFuzzer's `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    _ = fuzzTarget.run(data)
    return 0
}
#endif
