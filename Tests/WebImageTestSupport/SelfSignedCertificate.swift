import Foundation

/// A self-signed certificate for `127.0.0.1` and its private key, made by `openssl` in a
/// folder: what a server nobody vouches for presents.
public struct SelfSignedCertificate {
    /// The certificate, PEM.
    public let certificateFile: URL
    /// The private key, PEM, unencrypted.
    public let privateKeyFile: URL

    /// Generates a P-256 key and a one-day certificate for `127.0.0.1` in `folder` with
    /// `openssl req -x509`; throws when `openssl` is missing or fails.
    public init(in folder: URL) throws {
        certificateFile = folder.appendingPathComponent("certificate.pem")
        privateKeyFile = folder.appendingPathComponent("key.pem")
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", privateKeyFile.path, "-out", certificateFile.path, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ], timeout: 30)
        guard result.status == 0 else { throw Failure(message: result.error) }
    }

    /// `openssl` did not make the certificate; the message is its standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "openssl req failed: \(message)" }
    }
}
