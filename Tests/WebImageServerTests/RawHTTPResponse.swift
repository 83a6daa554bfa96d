import Foundation

/// An HTTP/1.1 response read from raw bytes (with a `Content-Length`, as `webimage serve` sends
/// every response), for tests reading a ``RawHTTPConnection``.
struct RawHTTPResponse {
    /// The status code.
    let status: Int
    /// The header fields, names lowercased.
    let headers: [String: String]
    /// The body.
    let body: Data

    /// The complete responses at the start of `data`, in order, to requests whose methods were
    /// `methods` in turn (a `HEAD` answer has no body); a response still arriving is left out.
    static func all(in data: Data, answering methods: [String]) -> [RawHTTPResponse] {
        var responses: [RawHTTPResponse] = []
        var rest = data[...]
        while let end = rest.firstRange(of: Data("\r\n\r\n".utf8)) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let statusFields = lines[0].split(separator: " ")
            guard statusFields.count >= 2, let status = Int(statusFields[1]) else { break }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            let isHead = responses.count < methods.count && methods[responses.count] == "HEAD"
            let bodyLength = status == 304 || isHead ? 0 : length
            let bodyStart = end.upperBound
            guard rest.distance(from: bodyStart, to: rest.endIndex) >= bodyLength else { break }
            let bodyEnd = rest.index(bodyStart, offsetBy: bodyLength)
            responses.append(RawHTTPResponse(status: status, headers: headers, body: Data(rest[bodyStart..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return responses
    }
}
