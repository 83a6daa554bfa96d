import Foundation

// webimage-benchmarks FIXTURES CASE [SECONDS [MIN_RUNS]]: prints "<case> <median seconds per operation>",
// or for memory.thumbnails "<case> <peak resident MiB>", for peak.thumbnail.* [OUTPUT] "<case> <peak MiB> <output bytes>"
// (the thumbnail written to OUTPUT when given).
// Benchmarks/run calls it once per case and round, alternating with the reference (Pillow,
// tjbench, or for a case `X` whose reference is plain Swift, the case `ref.X` of this binary).
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: webimage-benchmarks FIXTURES CASE [SECONDS [MIN_RUNS]]\n".utf8))
    exit(2)
}
let fixtures = URL(fileURLWithPath: arguments[1])
let budget = arguments.count > 3 ? Double(arguments[3]) ?? 1 : 1
let minimumRuns = arguments.count > 4 ? Int(arguments[4]) ?? 3 : 3
let cases = CodingCases.all(fixtures: fixtures) + ColorCases.all(fixtures: fixtures) + CacheCases.all(fixtures: fixtures) + DownloadCases.all + [GalleryCase.gallery]
    + ScaleCases.all + ThumbnailCases.all(fixtures: fixtures)
if arguments[2] == "list" {
    for c in cases { print(c.name) }
    print(MemoryCase.name)
    exit(0)
}
/// Prints "<name> <value>" for what `measure` returns, or the error and exits 1.
func report(_ name: String, _ measure: () throws -> Double) {
    do {
        print(name, try measure())
    } catch {
        FileHandle.standardError.write(Data("\(name) failed: \(error)\n".utf8))
        exit(1)
    }
}

do {
    let output = arguments.count > 3 ? URL(fileURLWithPath: arguments[3]) : nil
    if let (mebibytes, bytes) = try ThumbnailCases.peak(arguments[2], fixtures: fixtures, writingTo: output) {
        print(arguments[2], mebibytes, bytes)
        exit(0)
    }
} catch {
    FileHandle.standardError.write(Data("\(arguments[2]) failed: \(error)\n".utf8))
    exit(1)
}
if arguments[2] == MemoryCase.name {
    report(MemoryCase.name, MemoryCase.peakResidentMiB)
    exit(0)
}
guard let chosen = cases.first(where: { $0.name == arguments[2] }) else {
    FileHandle.standardError.write(Data("unknown case \(arguments[2])\n".utf8))
    exit(2)
}
report(chosen.name) {
    let operation = try chosen.prepare()
    defer { operation.tearDown() }
    return try Stopwatch.median(budget: budget, minimumRuns: minimumRuns, operation)
}
