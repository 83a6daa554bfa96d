extension URLSigner {
    /// The signer of imgproxy URLs `urls` describes: its keys and salts, signature size and
    /// trusted signatures. Throws when a key or salt is no hexadecimal, or they do not pair up.
    public init(_ urls: ServerConfiguration.URLSettings) throws(URLSignatureError) {
        try self.init(hexKeys: urls.keys, hexSalts: urls.salts, signatureSize: urls.signatureSize,
                      trustedSignatures: urls.trustedSignatures)
    }
}
