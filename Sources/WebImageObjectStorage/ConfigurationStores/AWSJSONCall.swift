import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// One call of an AWS JSON API (Secrets Manager's, Systems Manager's): a SigV4-signed `POST`
/// of a JSON body whose action `X-Amz-Target` names, its answer's JSON decoded, within 30
/// seconds (as imgproxy waits) and 1 MiB. A refusal says the service and AWS's error type
/// (`ResourceNotFoundException`), never the body, which may hold a secret.
struct AWSJSONCall: Sendable {
    /// The service's endpoint (`https://secretsmanager.REGION.amazonaws.com`).
    let endpoint: URL
    /// The region the call is signed for.
    let region: String
    /// The service's signing name (`secretsmanager`, `ssm`).
    let service: String
    /// What the service is called in an error (`AWS Secrets Manager`).
    let serviceName: String
    /// The credentials each call is signed with.
    let credentials: any ObjectStorageCredentialSource

    /// The answer to `action` (`secretsmanager.GetSecretValue`) with `body`.
    func send<Body: Encodable, Answer: Decodable>(_ action: String, _ body: Body, answer: Answer.Type) async throws(ObjectStorageError) -> Answer {
        let payload: Data
        do {
            payload = try JSONEncoder().encode(body)
        } catch {
            throw .unreachable("\(serviceName): the request cannot be encoded")
        }
        let host = endpoint.host.map { host in endpoint.port.map { "\(host):\($0)" } ?? host } ?? ""
        let headers: [(name: String, value: String)] = [("Host", host), ("Content-Type", "application/x-amz-json-1.1"), ("X-Amz-Target", action)]
        let signer = SigV4Signer(credentials: try await credentials.credentials(), region: region, service: service, signsPayloadHash: false)
        let signed = signer.signingHeaders(for: SigV4Request(method: "POST", path: "/", headers: headers,
                                                             payloadHash: SigV4Signer.payloadHash(of: payload)), at: Date())
        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.method = .POST
        for (name, value) in headers + signed where name != "Host" { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: payload))
        let status: UInt, data: Data
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            status = response.status.code
            data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch {
            throw .unreachable("\(serviceName) did not answer: \(error)")
        }
        guard status == 200 else {
            let type = (try? JSONDecoder().decode(Refusal.self, from: data))?.__type.map { " (\($0.split(separator: "#").last ?? ""))" } ?? ""
            throw .serviceRefused("\(serviceName) answered HTTP status \(status)\(type)")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw .serviceRefused("\(serviceName) answered JSON that is not what \(action) answers")
        }
    }

    /// The endpoint of `service` (its SDK identifier `SECRETS_MANAGER`, `SSM`) in `environment`:
    /// `AWS_ENDPOINT_URL_SERVICE`, else `AWS_ENDPOINT_URL`, else AWS's for `region`.
    static func endpoint(of service: String, host prefix: String, region: String, environment: [String: String]) throws(ObjectStorageError) -> URL {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let text = value("AWS_ENDPOINT_URL_" + service) ?? value("AWS_ENDPOINT_URL") ?? "https://\(prefix).\(region).amazonaws.com"
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .invalidEndpoint("\(text) is not an http(s) URL")
        }
        return url
    }

    /// The part of an AWS JSON error answer that may be shown: its type.
    private struct Refusal: Decodable {
        let __type: String?
    }
}
