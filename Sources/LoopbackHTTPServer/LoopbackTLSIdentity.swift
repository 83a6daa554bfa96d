import NIOSSL

/// The certificate and private key a ``LoopbackHTTPServer`` presents when it speaks HTTPS:
/// PEM files, typically a self-signed certificate a test generates.
public struct LoopbackTLSIdentity: Sendable, Hashable {
    /// The PEM file of the certificate chain, leaf first.
    public var certificateFile: String
    /// The PEM file of the certificate's private key.
    public var privateKeyFile: String

    /// An identity from its two PEM files.
    public init(certificateFile: String, privateKeyFile: String) {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
    }

    /// A server TLS configuration presenting this identity.
    func serverConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificateFile).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
        return .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    }
}
