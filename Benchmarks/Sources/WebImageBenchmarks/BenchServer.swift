import Foundation

/// The nginx server `Benchmarks/compare.py` starts for the network cases (see
/// `Benchmarks/bench_server.py`), named in `WEBIMAGE_BENCH_SERVER_URL` (its base URL) and
/// `WEBIMAGE_BENCH_SERVER_DIR` (the folder it serves).
enum BenchServer {
    /// No server named in the environment: the case cannot run.
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "WEBIMAGE_BENCH_SERVER_URL and WEBIMAGE_BENCH_SERVER_DIR name no server (Benchmarks/compare.py starts one)"
        }
    }

    /// The URLs of the files in `folder` of the server, in name order.
    static func urls(in folder: String) throws -> [URL] {
        let environment = ProcessInfo.processInfo.environment
        guard let base = environment["WEBIMAGE_BENCH_SERVER_URL"].flatMap(URL.init(string:)),
              let root = environment["WEBIMAGE_BENCH_SERVER_DIR"]
        else { throw Missing() }
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder).sorted()
        return names.map { base.appendingPathComponent(folder).appendingPathComponent($0) }
    }
}
