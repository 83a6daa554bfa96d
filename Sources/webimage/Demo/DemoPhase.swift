import Foundation
import WebImage

/// One pass of `webimage demo` over the gallery: every load's time and source, and what the
/// server saw meanwhile.
struct DemoPhase {
    let name: String
    var times: [Duration] = []
    var sources: [ImageSource: Int] = [:]
    var failures: [String] = []
    /// Requests the server answered during the phase, and the bytes of their bodies.
    var serverRequests = 0
    var downloadedBytes = 0
    /// The images loaded, by the position of their URL.
    var images: [(index: Int, image: Image)] = []

    /// `name`'s loads of `urls` through `manager`, all at once, each reported to `tick` as it ends.
    static func run(_ name: String, urls: [URL], manager: ImageManager, options: WebImageOptions = [],
                    context: ImageContext, tick: @escaping @Sendable () -> Void) async -> DemoPhase {
        var phase = DemoPhase(name: name)
        let outcomes = await withTaskGroup(of: (Int, Duration, Result<ImageResult, WebImageError>).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    let start = ContinuousClock.now
                    let result: Result<ImageResult, WebImageError>
                    do throws(WebImageError) {
                        result = .success(try await manager.image(for: url, options: options, context: context))
                    } catch {
                        result = .failure(error)
                    }
                    tick()
                    return (index, ContinuousClock.now - start, result)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }
        }
        for (index, time, result) in outcomes {
            phase.times.append(time)
            switch result {
            case .success(let loaded):
                phase.sources[loaded.source, default: 0] += 1
                phase.images.append((index, loaded.image))
            case .failure(let error):
                phase.failures.append("\(urls[index].path): \(error)")
            }
        }
        return phase
    }

    /// The sources in words: "network 24", "memory 20, disk 4".
    var sourceSummary: String {
        sources.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }

    /// The `fraction` quantile of the load times, in milliseconds.
    func milliseconds(at fraction: Double) -> Double {
        guard !times.isEmpty else { return 0 }
        let sorted = times.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        let (seconds, attoseconds) = sorted[index].components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
