import NIOSSL

/// The certificate a downloader shows an origin that asks for one (TLS client
/// authentication; thumbor's `HTTP_LOADER_CLIENT_CERT` and `HTTP_LOADER_CLIENT_KEY`), read when
/// it is made so that a missing or damaged file fails there rather than at the first download.
public struct HTTPClientCertificate: Sendable, Hashable {
    /// The certificate chain, leaf first.
    public let chain: [NIOSSLCertificate]
    /// The leaf certificate's private key.
    public let privateKey: NIOSSLPrivateKey

    /// The certificate of PEM files: `certificateFile` holds the chain, leaf first,
    /// `privateKeyFile` the key. Throws NIOSSL's error when either cannot be read.
    public init(certificateFile: String, privateKeyFile: String) throws {
        chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        privateKey = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
    }

    /// The certificates of the PEM file at `path`, for
    /// ``HTTPImageDownloader/Configuration/trustedCertificates``; throws NIOSSL's error when it
    /// cannot be read, and ``HTTPClientCertificateError/noCertificate(_:)`` when it holds none.
    public static func certificates(inPEMFile path: String) throws -> [NIOSSLCertificate] {
        let certificates = try NIOSSLCertificate.fromPEMFile(path)
        guard !certificates.isEmpty else { throw HTTPClientCertificateError.noCertificate(path) }
        return certificates
    }
}

/// Why a PEM file gave no certificate.
public enum HTTPClientCertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file at the path holds no certificate.
    case noCertificate(String)

    /// The reason, naming the file.
    public var description: String {
        switch self {
        case .noCertificate(let path): "\(path) holds no PEM certificate"
        }
    }
}
