import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One request of a credential source to an AWS service (STS, a container's or an instance's
/// metadata), over AsyncHTTPClient's shared client, within a deadline, its body read up to
/// 64 KiB. Its errors say what failed and never carry a body, which may hold keys.
enum CredentialsRequest {
    /// The deadline of each request: a metadata service that does not answer at once is not there.
    static let timeout: TimeAmount = .seconds(5)

    /// The body of `method` `url` with `headers` (and `body`), when the answer is 200; throws
    /// ``ObjectStorageError/credentialsUnavailable(_:)`` naming `service` otherwise.
    static func body(_ method: HTTPMethod = .GET, _ url: String, headers: [(String, String)] = [], body: Data? = nil,
                     service: String) async throws(ObjectStorageError) -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(data: body)) }
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 << 10)
            guard response.status == .ok else {
                throw ObjectStorageError.credentialsUnavailable("\(service) answered HTTP status \(response.status.code)")
            }
            return Data(buffer: body)
        } catch let error as ObjectStorageError {
            throw error
        } catch {
            throw .credentialsUnavailable("\(service) did not answer: \(error)")
        }
    }

    /// Credentials from the JSON a container's or an instance's metadata answers
    /// (`AccessKeyId`, `SecretAccessKey`, `Token`, `Expiration` in ISO 8601).
    static func credentials(fromJSON data: Data, service: String) throws(ObjectStorageError) -> ObjectStorageCredentials {
        struct Answer: Decodable {
            let AccessKeyId: String
            let SecretAccessKey: String
            let Token: String?
            let Expiration: String?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else {
            throw .credentialsUnavailable("\(service) answered no credentials")
        }
        return ObjectStorageCredentials(accessKeyID: answer.AccessKeyId, secretAccessKey: answer.SecretAccessKey,
                                        sessionToken: answer.Token, expiration: answer.Expiration.flatMap(date(iso8601:)))
    }

    /// The instant of an ISO 8601 time, with or without fractional seconds.
    static func date(iso8601 text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
