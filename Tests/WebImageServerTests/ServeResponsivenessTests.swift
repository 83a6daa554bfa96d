import AsyncHTTPClient
import Foundation
import XCTest

/// Image work runs on threads of its own (`CodecExecutor`), and `/health` and `/metrics` are
/// answered where they are read: a liveness probe is answered at once however much work runs.
final class ServeResponsivenessTests: ServeTestCase {
    func testHealthAndMetricsAnswerAtOnceWhileImagesAreMade() async throws {
        let base = try await serve(["--allow-loopback-sources", "--concurrency", "2", "--timeout", "120"])
        let source = origin.url("/photo.jpg").absoluteString
        // Four results of 4 megapixels, blurred: seconds of work each, more than the cores.
        let heavy = (0..<4).map { base + "/insecure/rs:fit:2400:2400/el:1/bl:\($0 + 6)/plain/" + source }
        let http = client!
        let work = Task.detached { () -> [Int] in
            await withTaskGroup(of: Int.self) { group in
                for url in heavy {
                    group.addTask { () -> Int in
                        guard let response = try? await http.execute(HTTPClientRequest(url: url), timeout: .seconds(120)) else { return 0 }
                        return Int(response.status.code)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        let busy = await origin.wait(timeout: .seconds(30)) { $0.requestCount("/photo.jpg") >= 1 }
        XCTAssertTrue(busy)
        try await Task.sleep(for: .milliseconds(300))
        for path in ["/health", "/metrics", "/health"] {
            let asked = ContinuousClock.now
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertLessThan(asked.duration(to: .now), .seconds(1), "\(path) waits for no image work")
        }
        let samples = try await metrics(base)
        XCTAssertGreaterThanOrEqual(samples["webimage_requests_in_progress"] ?? 0, 1, "the images were still being made")
        let statuses = await work.value
        XCTAssertEqual(statuses, [200, 200, 200, 200])
    }
}
