import NIOSSL

/// The certificate and private key a ``LoopbackHTTPServer`` presents when it speaks HTTPS:
/// PEM files, typically a self-signed certificate a test generates; with
/// ``clientCertificateAuthorityFile``, it asks each client for a certificate that file vouches
/// for, and refuses the handshake without one.
public struct LoopbackTLSIdentity: Sendable, Hashable {
    /// The PEM file of the certificate chain, leaf first.
    public var certificateFile: String
    /// The PEM file of the certificate's private key.
    public var privateKeyFile: String
    /// The PEM file of the certificates a client's must be signed by, or nil to ask none.
    public var clientCertificateAuthorityFile: String?

    /// An identity from its two PEM files, asking clients for a certificate
    /// `clientCertificateAuthorityFile` vouches for when given.
    public init(certificateFile: String, privateKeyFile: String, clientCertificateAuthorityFile: String? = nil) {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.clientCertificateAuthorityFile = clientCertificateAuthorityFile
    }

    /// A server TLS configuration presenting this identity.
    func serverConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificateFile).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        if let clientCertificateAuthorityFile {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .file(clientCertificateAuthorityFile)
        }
        return configuration
    }
}
