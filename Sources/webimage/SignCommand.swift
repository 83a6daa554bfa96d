import ArgumentParser
import Foundation
import WebImageServer

/// `webimage sign`: the signed form of an imgproxy URL path, for scripts and tests.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print an imgproxy URL path with its signature in front.",
        discussion: """
            The signature is the URL-safe base64 (no padding) of HMAC-SHA256(key, salt + PATH), \
            as imgproxy computes it. Without a key the signature segment is "insecure".
            Example:
              webimage sign --key 736563726574 --salt 68656C6C6F /rs:fill:300:400/plain/https://example.com/a.jpg
            """)

    @Option(help: "The key, in hexadecimal (default: $IMGPROXY_KEY when set and not empty).")
    var key: String?

    @Option(help: "The salt, in hexadecimal (default: $IMGPROXY_SALT when set and not empty).")
    var salt: String?

    @Option(help: "Bytes of the digest to keep, 1…32 (default: $IMGPROXY_SIGNATURE_SIZE or 32).")
    var signatureSize: Int?

    @Argument(help: "The path after the signature, starting with /: options, then the source.")
    var path: String

    func validate() throws {
        guard path.hasPrefix("/") else { throw ValidationError("the path must start with /") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        try await CommandFailure.reporting {
            let key = key ?? environment["IMGPROXY_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            let salt = salt ?? environment["IMGPROXY_SALT"].flatMap { $0.isEmpty ? nil : $0 }
            let size = try signatureSize ?? environment["IMGPROXY_SIGNATURE_SIZE"].map { text in
                guard let size = Int(text) else { throw CommandFailure("IMGPROXY_SIGNATURE_SIZE is not a number") }
                return size
            } ?? 32
            let signer = try URLSigner(hexKeys: key.map { [$0] } ?? [], hexSalts: salt.map { [$0] } ?? [],
                                       signatureSize: size)
            print(signer.sign(path))
        }
    }
}
