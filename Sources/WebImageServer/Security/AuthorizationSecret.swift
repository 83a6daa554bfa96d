import HTTPTypes

/// imgproxy's `IMGPROXY_SECRET`: every image request must carry `Authorization: Bearer SECRET`,
/// so that only a proxy or CDN in front that adds it can ask; others are answered 403. The
/// service endpoints (`/health`, `/metrics`) need none, as in imgproxy.
struct AuthorizationSecret: Sendable {
    /// The whole field value admitted, `Bearer SECRET`.
    private let expected: [UInt8]

    /// The check of `secret`.
    init(_ secret: SecretSetting) {
        expected = Array("Bearer \(secret.text)".utf8)
    }

    /// Whether `fields` carry the secret, compared in time that depends on its length only.
    func admits(_ fields: HTTPFields) -> Bool {
        let given = fields[.authorization].map { Array($0.utf8) } ?? []
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
