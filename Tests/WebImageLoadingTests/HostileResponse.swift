import Foundation
import LoopbackHTTPServer
import WebImageTestSupport

/// What a hostile server does with one request for an image, chosen at random with fixed
/// weights: serve it (at once or slowly), fail, cut the connection mid-body, stall, or send
/// bytes that are no image.
enum HostileResponse: String, CaseIterable, Sendable {
    case serve, serveSlowly, notFound, serverError, cutMidBody, stallBeforeHead, stallMidBody, corrupt

    /// Out of 100: most requests succeed, so that the caches fill and the loads that follow mix
    /// hits with downloads.
    private var weight: Int {
        switch self {
        case .serve: 52
        case .serveSlowly: 10
        case .notFound, .serverError, .cutMidBody, .corrupt: 8
        case .stallBeforeHead, .stallMidBody: 3
        }
    }

    /// A behaviour drawn with the weights.
    static func pick(using random: inout SeededRandom) -> HostileResponse {
        var roll = Int.random(in: 0..<100, using: &random)
        for behaviour in allCases {
            if roll < behaviour.weight { return behaviour }
            roll -= behaviour.weight
        }
        return .serve
    }

    /// The response for `image`, typed `contentType`. Stalls last far longer than any download
    /// timeout the stress test uses.
    func response(for image: Data, contentType: String, using random: inout SeededRandom) -> LoopbackHTTPResponse {
        let typed = [(name: "Content-Type", value: contentType)]
        switch self {
        case .serve:
            return .bytes(image, contentType: contentType, delay: .milliseconds(Int.random(in: 0...5, using: &random)))
        case .serveSlowly:
            return .slow(image, chunkSize: max(1, image.count / 4), delay: .milliseconds(2), contentType: contentType)
        case .notFound:
            return .status(404)
        case .serverError:
            return .status(500)
        case .cutMidBody:
            return LoopbackHTTPResponse(headers: typed + [("Content-Length", "\(image.count)")],
                                        chunks: [image.prefix(image.count / 2)], closesEarly: true)
        case .stallBeforeHead:
            return LoopbackHTTPResponse(headers: typed, chunks: [image], headDelay: .seconds(10))
        case .stallMidBody:
            return LoopbackHTTPResponse(headers: typed, chunks: [image.prefix(image.count / 3)], neverEnds: true)
        case .corrupt:
            // Either bytes of no known format or a PNG signature over noise (a bad chunk CRC).
            let noise = Data(random.bytes(image.count))
            let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let body = Bool.random(using: &random) ? Data([0x00]) + noise : signature + noise
            return LoopbackHTTPResponse(headers: typed, chunks: [body])
        }
    }
}
